import { eq, type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { reports } from '../../db/schema/index.ts';
import type { AppsService } from '../apps/service.ts';

const isUuid = (value: string) => z.uuid().safeParse(value).success;

/** Whose a message's report_id is, for the message centre; apps are read through the apps module. */
export class ReportTeams {
  constructor(
    private readonly db: Db,
    private readonly apps: Pick<AppsService, 'ownerOf' | 'idsOfTeams'>,
  ) {}

  /**
   * The app and team a message's report_id belongs to. Besides a report's id it may be an app's id: an
   * idle agent serves no report, and its heart-beats are kept under its app's id. Null: neither.
   */
  async ownerOf(reportId: string): Promise<{ appId: string; teamId: string } | null> {
    if (!isUuid(reportId)) return null;
    const [report] = await this.db.select({ appId: reports.appId }).from(reports).where(eq(reports.id, reportId));
    return this.apps.ownerOf(report?.appId ?? reportId);
  }

  /** The report ids (and app ids, see `ownerOf`) of these teams' apps, as text, for filtering stored messages. */
  keysOfTeams(teamIds: readonly string[]): SQL {
    if (teamIds.length === 0) return sql`select null::text where false`;
    const teamApps = this.apps.idsOfTeams(teamIds);
    return sql`select ${reports.id}::text from ${reports} where ${reports.appId} in (${teamApps})
    union all select id::text from (${teamApps}) as team_apps`;
  }
}
