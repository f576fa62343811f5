import type { RiskTreemap, RiskTreemapQuery, TreemapStatus } from '@sextant/api';
import { ApiError } from '../../errors.ts';
import type { ChangedMethod, ChangedMethodReads } from '../reports/index.ts';
import type { RiskDirectory } from './directory.ts';
import type { Viewer } from './service.ts';

/** Covered at the passing grade (a method without coverable lines counts by whether it ran), else changed or new. */
export function treemapStatus(m: ChangedMethod, passingGrade: number): TreemapStatus {
  const covered = m.lineTotal > 0 ? m.lineCovered / m.lineTotal >= passingGrade : m.lineCovered > 0;
  if (covered) return 'covered';
  return m.changeStatus === 'added' ? 'new-uncovered' : 'changed-uncovered';
}

/** The home screen's treemap (issue 34): the selected version's changed methods, by changed lines. */
export class RiskTreemapService {
  constructor(
    private readonly directory: RiskDirectory,
    private readonly reads: ChangedMethodReads,
  ) {}

  async treemap(viewer: Viewer, query: RiskTreemapQuery, passingGrade: number): Promise<RiskTreemap> {
    const teams = viewer.everyTeam ? {} : { teamIds: [...viewer.teamIds] };
    const [app] = await this.directory.apps({ appId: query.appId, ...teams });
    // An app outside the caller's teams answers as missing, as its risk items do.
    if (!app) throw new ApiError(404, 'not-found', 'No such app.');
    const reportId = await this.reads.latestReport(app.id, query.version, query.testType);
    if (!reportId) return { reportId: null, methods: [] };
    const methods = await this.reads.changedMethods(reportId);
    return {
      reportId,
      methods: methods.map((m) => ({
        className: m.className,
        name: m.name,
        filePath: m.filePath,
        startLine: m.startLine,
        changedLines: m.changedLines,
        lineCovered: m.lineCovered,
        lineTotal: m.lineTotal,
        status: treemapStatus(m, passingGrade),
      })),
    };
  }
}
