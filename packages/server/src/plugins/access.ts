import { type Action, can, editionAllows, type Resource, type Settings, type UserData } from '@sextant/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.ts';

/** Every route declares who may call it; undeclared routes stop the server at start. */
export type Access = 'public' | 'signed-in' | { action: Action; resource: Resource };

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyInstance {
    /** Every registered route with its access rule, for the docs and the route-table test. */
    accessTable: { method: string; url: string; access: Access }[];
    /**
     * The signed-in user behind an access token (401 otherwise), for public routes that accept other
     * credentials too and check them themselves (coverage uploads also take an app's ingestion token).
     */
    principalOf(accessToken: string): Promise<{ userData: UserData; settings: Settings }>;
  }
  interface FastifyRequest {
    principal?: Principal;
    /** The session (refresh-token family) the caller's access token belongs to, when it names one. */
    sessionId?: string | null;
  }
}

/** The signed-in user's rights, as the access check reads them. */
type Principal = { userData: UserData; settings: Settings };

/**
 * What the access check needs from the auth module, handed in by app.ts so that plugins never
 * import a feature module (the dependency runs modules → plugins only).
 */
export type Authenticator = {
  /** The user and session an access token names; throws the 401 ApiError when it is not valid. */
  verifySession(accessToken: string): Promise<{ userId: string; sessionId: string | null }>;
  /** Whether the session was ended (signed out, revoked), so its tokens stop at once. */
  sessionEnded(sessionId: string): Promise<boolean>;
  /** The user's rights and the system settings, or undefined when the account is gone. */
  load(userId: string): Promise<Principal | undefined>;
};

export function describeAccess(access: Access): string {
  if (access === 'public') return 'Permission: public.';
  if (access === 'signed-in') return 'Permission: any signed-in user.';
  return `Permission: ${access.action} ${access.resource}.`;
}

export function registerAccess(app: FastifyInstance, auth: Authenticator): void {
  const table: FastifyInstance['accessTable'] = [];
  app.decorate('accessTable', table);
  app.decorate('principalOf', async (accessToken: string) => (await principalOf(accessToken, auth)).principal);
  app.addHook('onRoute', (route) => {
    // Static files of the built web app and the API docs are public; every other /api route must declare.
    if (route.url.startsWith('/api/docs') || !route.url.startsWith('/api')) {
      route.config = { ...route.config, access: 'public' };
      return;
    }
    const access = (route.config as { access?: Access } | undefined)?.access;
    if (!access) throw new Error(`Route ${route.method} ${route.url} declares no access rule`);
    for (const method of [route.method].flat()) table.push({ method, url: route.url, access });
    route.schema = {
      ...route.schema,
      description: `${route.schema?.description ?? ''} ${describeAccess(access)}`.trim(),
    };
  });
  app.addHook('preValidation', async (req) => {
    const access = req.routeOptions.config.access;
    if (!access || access === 'public') return;
    const { principal, sessionId } = await authenticate(req, auth);
    req.principal = principal;
    req.sessionId = sessionId;
    if (access === 'signed-in') return;
    const { userData, settings } = principal;
    if (!editionAllows(settings.licenseVersion, access.resource)) {
      throw new ApiError(
        403,
        'edition-forbidden',
        `The ${settings.licenseVersion} edition does not include ${access.resource}.`,
      );
    }
    const permissions = {
      ability: userData.ability,
      resourceNums: userData.resourceNums,
      edition: settings.licenseVersion,
    };
    if (!can(permissions, access.action, access.resource)) {
      throw new ApiError(403, 'forbidden', `Your role may not ${access.action} ${access.resource}.`);
    }
  });
}

async function authenticate(req: FastifyRequest, auth: Authenticator) {
  const header = req.headers.authorization;
  const match = header?.match(/^Bearer (\S+)$/);
  if (!match?.[1]) throw new ApiError(401, 'unauthorized', 'Please sign in.');
  return principalOf(match[1], auth);
}

async function principalOf(accessToken: string, auth: Authenticator) {
  const { userId, sessionId } = await auth.verifySession(accessToken);
  // An ended session's access tokens stop at once (issue 32, finding 8), not when they expire.
  if (sessionId && (await auth.sessionEnded(sessionId))) {
    throw new ApiError(401, 'unauthorized', 'This session has ended; please sign in.');
  }
  const loaded = await auth.load(userId);
  if (!loaded) throw new ApiError(401, 'unauthorized', 'Please sign in.');
  return { principal: loaded, sessionId };
}
