import { AGENT_ALIVE_SECONDS, type AgentsNow, type UploadDay } from '@sextant/api';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

/** Which uploads and agents the analytics screens count (issue 35). */
export type IntakeScope = {
  appIds: readonly string[];
  testType?: 1 | 2;
  envType?: string;
  /** Days (YYYY-MM-DD, UTC), inclusive, on the upload's arrival. */
  from?: string;
  to?: string;
};

const ids = (scope: IntakeScope) => `{${scope.appIds.join(',')}}`;

/** The test activity the intake sees: uploads and uploading agents per day, and the agents' heart-beats. */
export class IntakeActivityReads {
  constructor(private readonly db: Db) {}

  /** Uploads per day (UTC) in scope, the last `days` days when no range is given. */
  async uploadsByDay(scope: IntakeScope, days = 30): Promise<UploadDay[]> {
    if (scope.appIds.length === 0) return [];
    const parts: SQL[] = [sql`u.app_id = any(${ids(scope)}::uuid[])`];
    if (scope.testType) parts.push(sql`u.test_type = ${scope.testType}`);
    if (scope.envType) parts.push(sql`u.env_type = ${scope.envType}`);
    if (scope.from) parts.push(sql`u.created_at >= ${scope.from}::date`);
    else parts.push(sql`u.created_at >= current_date - ${days - 1}::int`);
    if (scope.to) parts.push(sql`u.created_at < ${scope.to}::date + 1`);
    const result = await this.db.execute(sql`select to_char(u.created_at at time zone 'UTC', 'YYYY-MM-DD') as day,
        count(*)::int as uploads, count(distinct u.agent_id)::int as agents
      from coverage_uploads u where ${sql.join(parts, sql` and `)} group by 1 order by 1`);
    return result.rows.map((r) => ({ day: String(r.day), uploads: Number(r.uploads), agents: Number(r.agents) }));
  }

  /**
   * Per app and environment, the agents known and those alive now: last heart-beat a HEART_BEAT_DONE
   * at most AGENT_ALIVE_SECONDS old (failing: an error within it). Labels come from `names`.
   */
  async agentsNow(scope: IntakeScope, names: ReadonlyMap<string, string>): Promise<AgentsNow[]> {
    if (scope.appIds.length === 0) return [];
    const env = scope.envType ? sql`and a.env_type = ${scope.envType}` : sql``;
    const recent = sql`a.last_heartbeat_at >= now() - ${AGENT_ALIVE_SECONDS}::int * interval '1 second'`;
    const result = await this.db.execute(sql`select a.app_id, a.env_type, count(*)::int as agents,
        count(*) filter (where ${recent} and a.last_status = 'HEART_BEAT_DONE')::int as alive,
        count(*) filter (where ${recent} and a.last_status <> 'HEART_BEAT_DONE')::int as failing,
        max(a.last_heartbeat_at) as last
      from coverage_agents a where a.app_id = any(${ids(scope)}::uuid[]) ${env}
      group by 1, 2 order by 1, 2`);
    return result.rows
      .map((r) => ({
        appId: String(r.app_id),
        appName: names.get(String(r.app_id)) ?? '',
        envType: String(r.env_type),
        agents: Number(r.agents),
        alive: Number(r.alive),
        failing: Number(r.failing),
        lastHeartbeatAt: new Date(r.last as string).toISOString(),
      }))
      .sort((a, b) => a.appName.localeCompare(b.appName) || a.envType.localeCompare(b.envType));
  }
}
