import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { Authenticator } from '../../plugins/access.ts';
import { Principals } from './principals.ts';
import { authRoutes } from './routes.ts';
import { AuthService } from './service.ts';
import { sessionRoutes } from './session-routes.ts';
import { DEFAULT_SESSION_POLICY, type SessionPolicy, Sessions } from './sessions.ts';
import { AccessTokens } from './tokens.ts';

export type Auth = {
  tokens: AccessTokens;
  principals: Principals;
  sessionPolicy: SessionPolicy;
  /** What the access plugin checks every request with. */
  authenticator: Authenticator;
};

/** The shared sign-in services, built once: the access check needs them before any route is registered. */
export function createAuth(db: Db, config: Pick<Config, 'jwtSecret' | 'accessTokenTtl' | 'refreshIdleMs'>): Auth {
  const tokens = new AccessTokens(config.jwtSecret, config.accessTokenTtl);
  const principals = new Principals(db);
  return {
    tokens,
    principals,
    sessionPolicy: { ...DEFAULT_SESSION_POLICY, idleMs: config.refreshIdleMs },
    authenticator: {
      verifySession: (accessToken) => tokens.verifySession(accessToken),
      sessionEnded: (sessionId) => principals.sessionEnded(sessionId),
      load: (userId) => principals.load(userId),
    },
  };
}

/** Sign-in, refresh, sign-out and the person's own sessions (spec point 3, issue 32). */
export function registerAuth(app: FastifyInstance, db: Db, auth: Auth): void {
  authRoutes(app, new AuthService(db, auth.tokens, auth.principals, auth.sessionPolicy), auth.principals);
  sessionRoutes(app, new Sessions(db, auth.sessionPolicy), auth.principals);
}
