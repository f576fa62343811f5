import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { AuditService } from '../audit/service.ts';
import { TeamsRepository } from './repository.ts';
import { teamsRoutes } from './routes.ts';
import { TeamsService } from './service.ts';

export function createTeamsService(db: Db, audit: AuditService): TeamsService {
  return new TeamsService(db, audit, new TeamsRepository(db));
}

export function registerTeams(app: FastifyInstance, teams: TeamsService): void {
  teamsRoutes(app, teams);
}
