import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { ReportConfig } from '../../lib/data-paths.ts';
import { reportViewRoutes } from './routes.ts';

/** searchReports, getReport, getReportDetails, the source view and the dashboards (issue 6). */
export function registerReportViews(app: FastifyInstance, db: Db, config: ReportConfig): void {
  reportViewRoutes(app, db, config);
}
