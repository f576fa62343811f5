import { type AnswerSchema, PATHS } from '@sextant/api';

export type TokenStore = {
  accessToken(): string | null;
  refreshToken(): string | null;
  setTokens(accessToken: string, refreshToken: string): void;
  clear(): void;
};

export class ApiError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data: unknown = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type Envelope = { code: number; message?: string; data: unknown };

export type RequestOptions = {
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** Sends a string body as-is with this type (e.g. text/csv) instead of JSON. */
  contentType?: string;
  signal?: AbortSignal;
};

export type ApiClient = ReturnType<typeof createApiClient>;

/**
 * Fetch with the token rules of specification points 7 and 8: every call carries the stored bearer
 * token; a 401 starts exactly one refresh while other failed calls wait for it and are replayed with
 * the new token; a refresh answered with a code other than 200 clears the session.
 */
export function createApiClient(options: {
  store: TokenStore;
  onSessionExpired: () => void;
  baseUrl?: string;
  fetch?: typeof fetch;
}) {
  const { store, onSessionExpired, baseUrl = '' } = options;
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  let refreshing: Promise<string | null> | null = null;

  async function send(method: string, path: string, token: string | null, opts: RequestOptions) {
    const url = new URL(baseUrl + path, baseUrl || window.location.origin);
    for (const [key, value] of Object.entries(opts.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (token) headers.Authorization = `Bearer ${token}`;
    const raw = opts.contentType !== undefined && typeof opts.body === 'string';
    if (opts.body !== undefined) headers['Content-Type'] = raw ? (opts.contentType as string) : 'application/json';
    return doFetch(url, {
      method,
      headers,
      body: opts.body === undefined ? undefined : raw ? (opts.body as string) : JSON.stringify(opts.body),
      signal: opts.signal,
    });
  }

  async function refreshOnce(): Promise<string | null> {
    const refreshToken = store.refreshToken();
    if (!refreshToken) return expire();
    try {
      const response = await send('POST', PATHS.refreshToken, null, { body: { refreshToken } });
      const envelope = (await response.json()) as Envelope;
      const data = envelope.data as { accessToken?: string; refreshToken?: string } | null;
      if (envelope.code !== 200 || !data?.accessToken || !data.refreshToken) return expire();
      store.setTokens(data.accessToken, data.refreshToken);
      return data.accessToken;
    } catch {
      return expire();
    }
  }

  function expire(): null {
    store.clear();
    onSessionExpired();
    return null;
  }

  /** Shared by every caller that saw a 401 while the refresh was under way. */
  function refresh(): Promise<string | null> {
    refreshing ??= refreshOnce().finally(() => {
      refreshing = null;
    });
    return refreshing;
  }

  /** Every answer is checked with its schema before a caller sees it (issue 33). */
  async function request<T>(
    method: string,
    path: string,
    schema: AnswerSchema<T>,
    opts: RequestOptions = {},
  ): Promise<T> {
    const sentToken = store.accessToken();
    let response = await send(method, path, sentToken, opts);
    if (response.status === 401 && path !== PATHS.login && path !== PATHS.refreshToken) {
      // A call that left before another caller's refresh finished only needs the newer token.
      const current = store.accessToken();
      const token = current && current !== sentToken ? current : await refresh();
      if (!token) throw new ApiError(401, 'Your session has ended. Please sign in again.');
      response = await send(method, path, token, opts);
    }
    let envelope: Envelope;
    try {
      envelope = (await response.json()) as Envelope;
    } catch {
      throw new ApiError(response.status, `The server answered ${response.status} without a readable body.`);
    }
    // 2xx envelopes are answers (POST /api/reports and uploads say 201 Created).
    if (envelope.code < 200 || envelope.code >= 300) {
      throw new ApiError(envelope.code, envelope.message ?? 'Something went wrong', envelope.data);
    }
    return schema.parse(envelope.data);
  }

  return {
    request,
    get: <T>(path: string, schema: AnswerSchema<T>, opts?: RequestOptions) => request('GET', path, schema, opts),
    post: <T>(path: string, schema: AnswerSchema<T>, body?: unknown, opts?: RequestOptions) =>
      request('POST', path, schema, { ...opts, body }),
    patch: <T>(path: string, schema: AnswerSchema<T>, body?: unknown, opts?: RequestOptions) =>
      request('PATCH', path, schema, { ...opts, body }),
    put: <T>(path: string, schema: AnswerSchema<T>, body?: unknown, opts?: RequestOptions) =>
      request('PUT', path, schema, { ...opts, body }),
    delete: <T>(path: string, schema: AnswerSchema<T>, opts?: RequestOptions) => request('DELETE', path, schema, opts),
  };
}

/** The sentence to show for a failed call: the server's own message, or that it could not be reached. */
export function errorMessage(error: unknown): string {
  return error instanceof ApiError ? error.message : 'Sextant could not be reached. Try again in a moment.';
}

/** The server's per-field validation messages (`data.fields` of the error envelope). */
export function fieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError)) return {};
  return (error.data as { fields?: Record<string, string> } | null)?.fields ?? {};
}
