import { readFile } from 'node:fs/promises';
import { PATHS } from '@sextant/api';

/** What the API answered when it refused: the envelope's message and the HTTP status. */
export class ApiCallError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiCallError';
  }
}

/** The public API seen by `sextant demo`: a bearer token, JSON envelopes `{code, message, data}`. */
export class DemoApi {
  constructor(
    private readonly server: string,
    private readonly token: string,
  ) {}

  async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(new URL(path, this.server), {
      method,
      headers: {
        authorization: `Bearer ${this.token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return this.unwrap<T>(method, path, res);
  }

  /** Every item of a paginated list whose `field` equals `value` (lists answer `{items, total}`). */
  async find<T extends Record<string, unknown>>(path: string, field: string, value: string): Promise<T | undefined> {
    const separator = path.includes('?') ? '&' : '?';
    const page = await this.call<{ items: T[] }>(
      'GET',
      `${path}${separator}q=${encodeURIComponent(value)}&perPage=200`,
    );
    return page.items.find((item) => item[field] === value);
  }

  async upload(query: Record<string, string>, file: string): Promise<{ uploadId: string }> {
    const path = `${PATHS.uploads}?${new URLSearchParams(query)}`;
    const res = await fetch(new URL(path, this.server), {
      method: 'POST',
      headers: { authorization: `Bearer ${this.token}`, 'content-type': 'application/octet-stream' },
      body: await readFile(file),
    });
    return this.unwrap('POST', PATHS.uploads, res);
  }

  /** OTLP/HTTP JSON export with an app's ingestion token (the OTLP answer is not an envelope). */
  async sendTraces(ingestionToken: string, body: unknown): Promise<void> {
    const res = await fetch(new URL(PATHS.otlpTraces, this.server), {
      method: 'POST',
      headers: { authorization: `Bearer ${ingestionToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = await res.text();
    if (!res.ok || answer.includes('rejectedSpans'))
      throw new ApiCallError(res.status, `POST ${PATHS.otlpTraces}: ${res.status} ${answer.slice(0, 200)}`);
  }

  private async unwrap<T>(method: string, path: string, res: Response): Promise<T> {
    const text = await res.text();
    let envelope: { message?: string; data?: unknown } = {};
    try {
      envelope = JSON.parse(text) as typeof envelope;
    } catch {
      // A proxy's HTML error page: report the status alone.
    }
    if (!res.ok)
      throw new ApiCallError(res.status, `${method} ${path}: ${res.status} ${envelope.message ?? res.statusText}`);
    return envelope.data as T;
  }
}
