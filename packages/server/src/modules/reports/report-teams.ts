import { eq, inArray, type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { apps, reports } from '../../db/schema/index.ts';

const isUuid = (value: string) => z.uuid().safeParse(value).success;

/**
 * The app and team a message's report_id belongs to. Besides a report's id it may be an app's id: an
 * idle agent serves no report, and its heart-beats are kept under its app's id. Null: neither.
 */
export async function reportOwner(db: Db, reportId: string): Promise<{ appId: string; teamId: string } | null> {
  if (!isUuid(reportId)) return null;
  const [report] = await db
    .select({ appId: apps.id, teamId: apps.teamId })
    .from(reports)
    .innerJoin(apps, eq(apps.id, reports.appId))
    .where(eq(reports.id, reportId));
  if (report) return report;
  const [app] = await db.select({ appId: apps.id, teamId: apps.teamId }).from(apps).where(eq(apps.id, reportId));
  return app ?? null;
}

/** The report ids (and app ids, see `reportOwner`) of these teams' apps, as text, for filtering stored messages. */
export function reportKeysOfTeams(teamIds: readonly string[]): SQL {
  if (teamIds.length === 0) return sql`select null::text where false`;
  const teamApps = sql`select ${apps.id} from ${apps} where ${inArray(apps.teamId, [...teamIds])}`;
  return sql`select ${reports.id}::text from ${reports} where ${reports.appId} in (${teamApps})
    union all select ${apps.id}::text from ${apps} where ${inArray(apps.teamId, [...teamIds])}`;
}
