import type { ErrorCode } from '@sextant/api';

/** An error the API answers as-is: HTTP status = code, `data.error` = the closed error code. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly error: ErrorCode,
    message: string,
    readonly fields?: Record<string, string>,
    /** For 429: seconds until a retry may succeed, sent as `Retry-After`. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}
