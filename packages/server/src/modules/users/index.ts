import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { AuditService } from '../audit/service.ts';
import type { Principals } from '../auth/principals.ts';
import { gitIdentityRoutes } from './git-identity-routes.ts';
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
  const users = new UsersService(db, deps.requests);
  usersRoutes(app, users, audit, () => principals.invalidate());
  gitIdentityRoutes(app, users, audit);
  profileRoutes(app, new ProfileService(db), principals);
}

export { type GitIdentityReads, type GitPerson, gitIdentityReads } from './git-identities.ts';
