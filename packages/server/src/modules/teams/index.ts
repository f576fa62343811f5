import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import { AuditService } from '../audit/service.ts';
import { teamsRoutes } from './routes.ts';
import { TeamsService } from './service.ts';

export function registerTeams(app: FastifyInstance, db: Db): void {
  teamsRoutes(app, new TeamsService(db, new AuditService(db)));
}
