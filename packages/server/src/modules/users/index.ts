import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { AuditService } from '../audit/service.ts';
import type { Principals } from '../auth/principals.ts';
import { profileRoutes } from './profile-routes.ts';
import { ProfileService } from './profile-service.ts';
import { usersRoutes } from './routes.ts';
import { type PendingRequests, UsersService } from './service.ts';

/**
 * The accounts on `/system/users` and the signed-in user's own profile. `requests` are the pending
 * access requests a new account's name is checked against (the applications module's service).
 */
export function registerUsers(
  app: FastifyInstance,
  db: Db,
  deps: { audit: AuditService; principals: Principals; requests: PendingRequests },
): void {
  const { audit, principals } = deps;
  usersRoutes(app, new UsersService(db, deps.requests), audit, () => principals.invalidate());
  profileRoutes(app, new ProfileService(db), principals);
}
