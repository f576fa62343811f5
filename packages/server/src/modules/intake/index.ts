import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { ReportConfig } from '../../lib/data-paths.ts';
import { createAppsService } from '../apps/index.ts';
import { AgentsService } from './agents-service.ts';
import { IntakeCredentials } from './credentials.ts';
import { IntakeRepository } from './repository.ts';
import { intakeRoutes } from './routes.ts';
import { registerUploadRoute } from './upload-route.ts';
import { UploadsService } from './uploads-service.ts';

/** Coverage uploads, agent heart-beats and the agents list (issue 6). */
export function registerCoverageIntake(app: FastifyInstance, db: Db, config: ReportConfig): void {
  const repository = new IntakeRepository(db);
  const credentials = new IntakeCredentials(repository, createAppsService(db), (token) => app.principalOf(token));
  const uploads = new UploadsService(repository, config);
  registerUploadRoute(app, { credentials, uploads, config });
  intakeRoutes(app, { credentials, uploads, agents: new AgentsService(repository, app.messages), repository });
}
