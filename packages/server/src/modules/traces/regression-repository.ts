import type { RegressionSide } from '@sextant/api';
import { desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { regressionRuns } from '../../db/schema/traces.ts';

/** Durations kept per interface and side for the rank test: enough for its power, bounded in memory. */
const SAMPLE_LIMIT = 5000;

export type SideInterfaceRow = {
  interface: string;
  calls: string;
  errors: string;
  p95_ns: number;
  sample_ms: number[];
};
export type RegressionRunRow = typeof regressionRuns.$inferSelect;

const sideFilter = (appId: string, side: RegressionSide) =>
  side.kind === 'version'
    ? sql`app_id = ${appId} and app_version = ${side.version}`
    : sql`app_id = ${appId} and start_time >= ${new Date(side.from)} and start_time < ${new Date(side.to)}`;
const entry = sql`interface is not null and (kind = 2 or parent_span_id is null)`;

/** The regression runs' SQL (issue 36): the two sides' spans, and the stored runs. */
export class RegressionRepository {
  constructor(private readonly db: Db) {}

  async sideInterfaces(appId: string, side: RegressionSide): Promise<SideInterfaceRow[]> {
    const result = await this.db.execute<SideInterfaceRow>(sql`
      select interface, count(*)::text as calls, count(*) filter (where status_code = 2)::text as errors,
        percentile_cont(0.95) within group (order by duration_ns) as p95_ns,
        (array_agg(duration_ns::float8 / 1e6))[1:${SAMPLE_LIMIT}] as sample_ms
      from spans where ${sideFilter(appId, side)} and ${entry}
      group by interface`);
    return result.rows;
  }

  async sideTestCases(appId: string, side: RegressionSide): Promise<string[]> {
    const result = await this.db.execute<{ test_case: string }>(sql`
      select distinct test_case from spans where ${sideFilter(appId, side)} and test_case is not null
      order by test_case limit 1000`);
    return result.rows.map((r) => r.test_case);
  }

  async insert(row: typeof regressionRuns.$inferInsert): Promise<RegressionRunRow> {
    const [created] = await this.db.insert(regressionRuns).values(row).returning();
    if (!created) throw new Error('regression run not stored');
    return created;
  }

  list(appId?: string): Promise<RegressionRunRow[]> {
    const query = this.db.select().from(regressionRuns);
    return (appId ? query.where(eq(regressionRuns.appId, appId)) : query)
      .orderBy(desc(regressionRuns.createdAt))
      .limit(200);
  }

  async get(id: string): Promise<RegressionRunRow | undefined> {
    const [row] = await this.db.select().from(regressionRuns).where(eq(regressionRuns.id, id));
    return row;
  }
}
