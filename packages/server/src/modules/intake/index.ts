import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { ReportConfig } from '../../lib/data-paths.ts';

/** Coverage uploads, agent heart-beats and the agents list (issue 6). */
export function registerCoverageIntake(_app: FastifyInstance, _db: Db, _config: ReportConfig): void {}
