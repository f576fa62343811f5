import type { Readiness } from '@sextant/api';
import type { HealthRepository } from './repository.ts';

export type ReadinessProbe = () => Promise<void>;

/** Each check's answer within this long counts; a slower one is reported as failing (a stuck pool is not ready). */
const CHECK_TIMEOUT_MS = 2_000;

/**
 * Liveness says the process answers; readiness says it can serve: the database answers, every migration
 * this build ships is applied, and Redis (when configured) answers a PING.
 */
export class HealthService {
  private shuttingDown = false;

  constructor(
    private readonly repository: HealthRepository,
    private readonly redis: ReadinessProbe | undefined,
  ) {}

  /** From now on the process is not ready, whatever the checks say (it is closing; send elsewhere). */
  beginShutdown(): void {
    this.shuttingDown = true;
  }

  async readiness(): Promise<Readiness> {
    const [database, migrations, redis] = await Promise.all([
      check(() => this.repository.roundTrip()),
      check(async () => {
        const [applied, shipped] = [await this.repository.appliedMigrations(), this.repository.shippedMigrations()];
        if (applied < shipped) throw new Error(`${applied} of ${shipped} migrations applied`);
      }),
      this.redis ? check(this.redis) : Promise.resolve({ ok: true, detail: 'not configured' }),
    ]);
    if (this.shuttingDown) {
      const shutdown = { ok: false, detail: 'shutting down' };
      return { ready: false, checks: { database, migrations, redis, shutdown } };
    }
    return { ready: database.ok && migrations.ok && redis.ok, checks: { database, migrations, redis } };
  }
}

async function check(probe: () => Promise<void>): Promise<{ ok: boolean; detail: string }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([probe(), timeout]);
    return { ok: true, detail: 'ok' };
  } catch (error) {
    return { ok: false, detail: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
  }
}
