// The errors of talking to a server, apart from http.ts: the command runner names them for every
// command, and `sextant coverage` should not load node:http and node:https (~9 ms) to do so.

/** The server answered with an error envelope, or something that is not one. */
export class ServerError extends Error {
  override name = 'ServerError';
  constructor(
    readonly status: number,
    message: string,
    /** A busy server's Retry-After (429, 503), in seconds. */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
  }
}

/** One failed file: its name and the server's (or the file system's) reason. */
export class UploadFailed extends Error {
  override name = 'UploadFailed';
  constructor(file: string, cause: unknown) {
    super(`${file}: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}
