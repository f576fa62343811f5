import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { REPORT_QUEUE } from '../reports/report-jobs.ts';

/**
 * The metrics module's SQL. The report queue lives in pg-boss's own `pgboss` schema, not in a table of
 * any module; it is read here, for the depth gauge only, and answers 0 before pg-boss has created it.
 */
export class MetricsRepository {
  constructor(private readonly db: Db) {}

  async reportQueueDepth(): Promise<number> {
    const exists = await this.db.execute<{ present: boolean }>(
      sql`select to_regclass('pgboss.job') is not null as present`,
    );
    if (!exists.rows[0]?.present) return 0;
    const result = await this.db.execute<{ waiting: number }>(
      sql`select count(*)::int as waiting from pgboss.job where name = ${REPORT_QUEUE} and state in ('created', 'retry')`,
    );
    return Number(result.rows[0]?.waiting ?? 0);
  }
}
