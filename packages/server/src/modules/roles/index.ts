import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { AuditService } from '../audit/service.ts';
import type { Principals } from '../auth/principals.ts';
import { rolesRoutes } from './routes.ts';
import { RolesService } from './service.ts';

export function registerRoles(
  app: FastifyInstance,
  db: Db,
  deps: { audit: AuditService; principals: Principals },
): void {
  rolesRoutes(app, new RolesService(db), deps.audit, deps.principals);
}
