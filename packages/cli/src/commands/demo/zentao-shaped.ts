import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the fake ZenTao holds: products, and each product's stories and test cases (ZenTao's field names). */
export type FakeZentaoData = {
  products: { id: number; name: string; code: string }[];
  stories: Record<number, { id: number; title: string; status: string; stage: string; product: number }[]>;
  testcases: Record<
    number,
    { id: number; title: string; story: number; type: string; auto: string; product: number }[]
  >;
};

export type FakeZentao = {
  url: string;
  data: FakeZentaoData;
  /** Every API call as "METHOD path?query", in order. */
  calls: string[];
  /** Headers of the home page (what the frame check reads), e.g. X-Frame-Options. */
  homeHeaders: Record<string, string>;
  /** Tokens issued so far stop working: the next call with one answers 401, as an expired session does. */
  expireTokens: () => void;
  /** The next call whose path starts with this answers 500 with ZenTao's error shape. */
  failNext: (pathPrefix: string) => void;
  close: () => Promise<void>;
};

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

async function bodyOf(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
  } catch {
    return {};
  }
}

/**
 * A local HTTP server answering as ZenTao's REST API v1 is documented to (zentao.pm, API 2.0 / v1):
 * `POST /api.php/v1/tokens` → `{ token }` (201), the token in a `Token` header, lists paged by `page`
 * and `limit` as `{ page, total, limit, <items> }`, errors as `{ error }`, 401 for an unknown token.
 * It also serves a home page at `/` (for the frame check and the browser's frame).
 *
 * `sextant demo` imports its ZenTao-shaped plan from one (demo/zentao.ts); the server's ZenTao tests and
 * the browser journey test the client against one.
 */
export async function startFakeZentao(opts: {
  account: string;
  password: string;
  data: FakeZentaoData;
  homeHeaders?: Record<string, string>;
  host?: string;
}): Promise<FakeZentao> {
  const tokens = new Set<string>();
  const failures: string[] = [];
  const state = { data: opts.data, calls: [] as string[], homeHeaders: opts.homeHeaders ?? {} };

  const paged = (res: ServerResponse, url: URL, field: string, items: unknown[]) => {
    const page = Math.max(1, Number(url.searchParams.get('page') ?? 1) || 1);
    const limit = Math.min(500, Math.max(1, Number(url.searchParams.get('limit') ?? 20) || 20));
    const slice = items.slice((page - 1) * limit, page * limit);
    send(res, 200, { page, total: items.length, limit, [field]: slice });
  };

  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://zentao.local');
    if (!url.pathname.startsWith('/api.php/v1/')) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...state.homeHeaders });
      res.end(
        '<!doctype html><title>ZenTao</title><body style="font-family:sans-serif"><h1>ZenTao</h1><p>My dashboard</p></body>',
      );
      return;
    }
    const path = url.pathname.slice('/api.php/v1'.length);
    state.calls.push(`${req.method} ${path}${url.search}`);
    const failing = failures.findIndex((prefix) => path.startsWith(prefix));
    if (failing !== -1) {
      failures.splice(failing, 1);
      return send(res, 500, { error: 'Database error: server has gone away' });
    }
    if (req.method === 'POST' && path === '/tokens') {
      const body = await bodyOf(req);
      if (body.account !== opts.account || body.password !== opts.password) {
        return send(res, 400, { error: '登录失败，请检查您的用户名或密码是否填写正确。' });
      }
      const token = randomBytes(16).toString('hex');
      tokens.add(token);
      return send(res, 201, { token });
    }
    const token = req.headers.token;
    if (typeof token !== 'string' || !tokens.has(token)) return send(res, 401, { error: 'Unauthorized' });
    if (req.method !== 'GET') return send(res, 405, { error: 'Method not allowed' });
    if (path === '/products') return paged(res, url, 'products', state.data.products);
    const m = /^\/products\/(\d+)\/(stories|testcases)$/.exec(path);
    const product = m && state.data.products.find((p) => p.id === Number(m[1]));
    if (!m || !product) return send(res, 404, { error: 'Not found' });
    const items = m[2] === 'stories' ? state.data.stories[product.id] : state.data.testcases[product.id];
    return paged(res, url, m[2] as string, items ?? []);
  });
  await new Promise<void>((resolve) => server.listen(0, opts.host ?? '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${opts.host ?? '127.0.0.1'}:${port}/`,
    get data() {
      return state.data;
    },
    set data(value) {
      state.data = value;
    },
    calls: state.calls,
    get homeHeaders() {
      return state.homeHeaders;
    },
    set homeHeaders(value) {
      state.homeHeaders = value;
    },
    expireTokens: () => tokens.clear(),
    failNext: (prefix) => failures.push(prefix),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  } as FakeZentao;
}
