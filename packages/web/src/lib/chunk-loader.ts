/** Specification point 8: a screen part that has not loaded after 120 seconds is an error. */
export const CHUNK_TIMEOUT_MS = 120_000;

export class ChunkLoadError extends Error {
  /** Whether the 120 s passed (screens show a translated sentence for each case). */
  readonly timedOut: boolean;
  constructor(cause: unknown) {
    super(cause instanceof ChunkTimeout ? 'The screen did not load within 120 seconds.' : 'The screen failed to load.');
    this.timedOut = cause instanceof ChunkTimeout;
    this.name = 'ChunkLoadError';
    this.cause = cause;
  }
}

class ChunkTimeout extends Error {}

export function loadChunk<T>(importer: () => Promise<T>, timeoutMs = CHUNK_TIMEOUT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkLoadError(new ChunkTimeout())), timeoutMs);
    importer().then(
      (module) => {
        clearTimeout(timer);
        resolve(module);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(new ChunkLoadError(error));
      },
    );
  });
}
