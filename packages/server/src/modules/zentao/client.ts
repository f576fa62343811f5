/**
 * A client of ZenTao's REST API v1 (https://www.zentao.pm/book/api/): `POST /api.php/v1/tokens` with the
 * account gives a token sent as the `Token` header; lists page with `page` and `limit` and answer
 * `{ page, total, limit, <items>: [...] }`; errors answer `{ error: "..." }`; an expired token answers 401,
 * after which the client signs in again once and repeats the call.
 */

export type ZentaoAccount = { url: string; account: string; password: string };

export type ZentaoProduct = { id: number; name: string; code: string };
export type ZentaoStory = { id: number; title: string; status: string; stage: string; product: number };
export type ZentaoTestCase = {
  id: number;
  title: string;
  story: number | null;
  type: string;
  auto: string;
  product: number;
};

/** ZenTao could not be reached or refused a call; `message` says which and why, for the administrator. */
export class ZentaoError extends Error {}

const PAGE_SIZE = 100;
/** A runaway paging answer (a total that never ends) stops here. */
const MAX_PAGES = 1000;
const TIMEOUT_MS = 15_000;

type Json = Record<string, unknown>;

function num(value: unknown): number | null {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) ? n : null;
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** ZenTao's own words for a failure, if its answer has them. */
function errorOf(body: unknown): string | null {
  if (body && typeof body === 'object' && 'error' in body) {
    const error = (body as Json).error;
    if (typeof error === 'string' && error.trim() !== '') return error.trim().slice(0, 300);
  }
  return null;
}

export class ZentaoClient {
  private token: string | null = null;
  private readonly base: string;

  constructor(
    private readonly account: ZentaoAccount,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {
    this.base = `${account.url.replace(/\/+$/, '')}/api.php/v1`;
  }

  async products(): Promise<ZentaoProduct[]> {
    const rows = await this.pages('/products', 'products');
    return rows.flatMap((r) => {
      const id = num(r.id);
      return id === null ? [] : [{ id, name: str(r.name), code: str(r.code) }];
    });
  }

  async stories(productId: number): Promise<ZentaoStory[]> {
    const rows = await this.pages(`/products/${productId}/stories`, 'stories');
    return rows.flatMap((r) => {
      const id = num(r.id);
      if (id === null) return [];
      return [{ id, title: str(r.title), status: str(r.status), stage: str(r.stage), product: productId }];
    });
  }

  async testCases(productId: number): Promise<ZentaoTestCase[]> {
    const rows = await this.pages(`/products/${productId}/testcases`, 'testcases');
    return rows.flatMap((r) => {
      const id = num(r.id);
      if (id === null) return [];
      const story = num(r.story);
      return [
        {
          id,
          title: str(r.title),
          story: story && story > 0 ? story : null,
          type: str(r.type),
          auto: str(r.auto),
          product: productId,
        },
      ];
    });
  }

  /** Signs in: the token for the next calls. Wrong account or password is ZenTao's own message. */
  async signIn(): Promise<void> {
    const { status, body } = await this.send('POST', '/tokens', {
      account: this.account.account,
      password: this.account.password,
    });
    const token = body && typeof body === 'object' ? (body as Json).token : undefined;
    if (status >= 200 && status < 300 && typeof token === 'string' && token !== '') {
      this.token = token;
      return;
    }
    const why = errorOf(body) ?? `HTTP ${status}`;
    throw new ZentaoError(`ZenTao refused the sign-in of account "${this.account.account}": ${why}.`);
  }

  /** Every row of a paged list, page by page until `total` rows are read or a page comes back short. */
  private async pages(path: string, field: string): Promise<Json[]> {
    const rows: Json[] = [];
    for (let page = 1; page <= MAX_PAGES; page++) {
      const body = await this.get(`${path}?page=${page}&limit=${PAGE_SIZE}`);
      const items = body[field];
      if (!Array.isArray(items)) {
        throw new ZentaoError(`ZenTao's answer to GET ${path} has no "${field}" list; is this ZenTao's API v1?`);
      }
      rows.push(...items.filter((i): i is Json => i !== null && typeof i === 'object'));
      const total = num(body.total);
      const limit = num(body.limit) ?? PAGE_SIZE;
      if (items.length === 0 || items.length < limit || (total !== null && rows.length >= total)) return rows;
    }
    throw new ZentaoError(`GET ${path} did not end after ${MAX_PAGES} pages.`);
  }

  /** A GET with the token; on 401 (an expired token) one new sign-in, then the call once more. */
  private async get(path: string): Promise<Json> {
    if (!this.token) await this.signIn();
    let answer = await this.send('GET', path);
    if (answer.status === 401) {
      await this.signIn();
      answer = await this.send('GET', path);
    }
    const { status, body } = answer;
    if (status >= 200 && status < 300 && body && typeof body === 'object' && !Array.isArray(body)) {
      const error = errorOf(body);
      if (error) throw new ZentaoError(`ZenTao answered GET ${path.split('?')[0]}: ${error}.`);
      return body as Json;
    }
    const why = errorOf(body) ?? `HTTP ${status}`;
    throw new ZentaoError(`ZenTao answered GET ${path.split('?')[0]}: ${why}.`);
  }

  private async send(
    method: 'GET' | 'POST',
    path: string,
    payload?: unknown,
  ): Promise<{ status: number; body: unknown }> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (payload !== undefined) headers['content-type'] = 'application/json';
    if (this.token && method === 'GET') headers.token = this.token;
    let res: Response;
    try {
      res = await this.fetchImpl(`${this.base}${path}`, {
        method,
        headers,
        body: payload === undefined ? undefined : JSON.stringify(payload),
        redirect: 'error',
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      const why = error instanceof Error && error.name === 'TimeoutError' ? 'no answer in time' : 'cannot connect';
      throw new ZentaoError(`ZenTao at ${this.account.url} cannot be reached (${why}).`);
    }
    const text = await res.text();
    let body: unknown = null;
    try {
      body = text === '' ? null : JSON.parse(text);
    } catch {
      if (res.ok)
        throw new ZentaoError(`ZenTao's answer to ${method} ${path.split('?')[0]} is not JSON; is the address right?`);
    }
    return { status: res.status, body };
  }
}
