import type { Db } from '../../db/client.ts';
import {
  activityByDay,
  appVersionPage,
  coverageByWeek,
  groupFigures,
  latestStandings,
} from '../reports/analytics-reads.ts';
import type { ReportScope } from '../reports/analytics-scope.ts';
import { authorReports } from '../reports/author-reads.ts';
import { casePage } from '../reports/case-page.ts';
import { caseImpact, caseMethods } from '../reports/case-reads.ts';
import { committerPage, committerTrend } from '../reports/committer-reads.ts';
import { requirementPage } from '../reports/requirement-reads.ts';

type Rest<F> = F extends (db: Db, ...rest: infer R) => infer T ? (...rest: R) => T : never;

/**
 * The analytics module owns no table: its reads are the reports module's read side
 * (reports/analytics-reads.ts, committer-reads.ts, author-reads.ts, requirement-reads.ts, case-page.ts, case-reads.ts), bound to
 * the database here.
 */
export class AnalyticsRepository {
  constructor(private readonly db: Db) {}

  committerPage: Rest<typeof committerPage> = (...a) => committerPage(this.db, ...a);
  committerTrend: Rest<typeof committerTrend> = (...a) => committerTrend(this.db, ...a);
  appVersionPage: Rest<typeof appVersionPage> = (...a) => appVersionPage(this.db, ...a);
  activityByDay: Rest<typeof activityByDay> = (...a) => activityByDay(this.db, ...a);
  coverageByWeek: Rest<typeof coverageByWeek> = (...a) => coverageByWeek(this.db, ...a);
  latestStandings: Rest<typeof latestStandings> = (...a) => latestStandings(this.db, ...a);
  groupFigures: Rest<typeof groupFigures> = (...a) => groupFigures(this.db, ...a);
  authorReports: Rest<typeof authorReports> = (...a) => authorReports(this.db, ...a);
  requirementPage: Rest<typeof requirementPage> = (...a) => requirementPage(this.db, ...a);
  casePage: Rest<typeof casePage> = (...a) => casePage(this.db, ...a);
  caseMethods: Rest<typeof caseMethods> = (...a) => caseMethods(this.db, ...a);
  caseImpact: Rest<typeof caseImpact> = (...a) => caseImpact(this.db, ...a);
}

export type { ReportScope };
