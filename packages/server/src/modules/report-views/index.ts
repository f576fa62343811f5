import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { ReportConfig } from '../../lib/data-paths.ts';

/** searchReports, getReport, getReportDetails, the source view and the dashboards (issue 6). */
export function registerReportViews(_app: FastifyInstance, _db: Db, _config: ReportConfig): void {}
