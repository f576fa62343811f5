import { ApiError } from '../../errors.ts';

/** What a refused sender is told to wait: about one parse of a large report. */
export const RETRY_AFTER_SECONDS = 10;

/**
 * Bounds the coverage uploads in progress (being received, waiting for a parser, or parsed): the
 * parsers and a queue of `queue` behind them. One more is refused before its body is read, with 429
 * and Retry-After, as a busy CI service answers, rather than piling up files and memory (issue 32).
 */
export class UploadAdmission {
  private inProgress = 0;

  constructor(private readonly capacity: number) {}

  /** Takes a place or throws 429; the returned function gives the place back (once). */
  enter(): () => void {
    if (this.inProgress >= this.capacity) {
      throw new ApiError(429, 'rate-limited', 'Too many coverage uploads are being processed; send it again later.');
    }
    this.inProgress++;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.inProgress--;
    };
  }
}
