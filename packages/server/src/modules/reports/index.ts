import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { ReportConfig } from '../../lib/data-paths.ts';

/** Report create/edit/delete and the durable report pipeline (issue 6). */
export async function registerReports(_app: FastifyInstance, _db: Db, _config: ReportConfig): Promise<void> {}
