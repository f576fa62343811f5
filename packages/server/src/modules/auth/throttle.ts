import { ApiError } from '../../errors.ts';
import type { Executor } from '../../lib/table-repository.ts';
import { AuthRepository } from './repository.ts';

/**
 * Attempts of one kind limited per subject within a sliding window, kept in the database so that
 * every server instance counts the same attempts.
 */
export class Throttle {
  private readonly rows: AuthRepository;

  constructor(
    db: Executor,
    readonly kind: string,
    readonly limit: number,
    readonly windowMs: number,
    private readonly refusal: string,
  ) {
    this.rows = new AuthRepository(db);
  }

  private recent(subject: string): Promise<{ n: number; last: Date | null }> {
    return this.rows.attemptsSince(this.kind, subject, new Date(Date.now() - this.windowMs));
  }

  private refuse(last: Date | null): never {
    const free = (last?.getTime() ?? Date.now()) + this.windowMs - Date.now();
    throw new ApiError(429, 'rate-limited', this.refusal, undefined, Math.max(1, Math.ceil(free / 1000)));
  }

  /** 429 once `limit` attempts fell within the window. */
  async refuseIfSpent(subject: string): Promise<void> {
    const { n, last } = await this.recent(subject);
    if (n >= this.limit) this.refuse(last);
  }

  record(subject: string): Promise<void> {
    return this.rows.recordAttempt(this.kind, subject);
  }

  /**
   * Counts this attempt, then refuses it when it is beyond the limit. Recording first means that
   * concurrent attempts all see each other: 30 at once let at most `limit` through.
   */
  async take(subject: string): Promise<void> {
    await this.record(subject);
    const { n, last } = await this.recent(subject);
    if (n > this.limit) this.refuse(last);
  }

  clear(subject: string): Promise<void> {
    return this.rows.clearAttempts(this.kind, subject);
  }
}

/**
 * The network an address belongs to, for per-client limits: IPv4 addresses as they are, IPv6 ones
 * by their /64 (one host commonly holds a whole /64, so single addresses would cost it nothing).
 */
export function networkOf(ip: string): string {
  if (!ip.includes(':') || /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(ip)) return ip.replace(/^::ffff:/i, '');
  const [head = '', tail = ''] = ip.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = ip.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
