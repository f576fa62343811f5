import { type Action, can, editionAllows, type Resource, type Settings, type UserData } from '@sextant/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Principals } from '../modules/auth/principals.ts';
import type { AccessTokens } from '../modules/auth/tokens.ts';
import { ApiError } from './errors.ts';

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
    principal?: { userData: UserData; settings: Settings };
    /** The session (refresh-token family) the caller's access token belongs to, when it names one. */
    sessionId?: string | null;
  }
}

export function describeAccess(access: Access): string {
  if (access === 'public') return 'Permission: public.';
  if (access === 'signed-in') return 'Permission: any signed-in user.';
  return `Permission: ${access.action} ${access.resource}.`;
}

export function registerAccess(app: FastifyInstance, tokens: AccessTokens, principals: Principals): void {
  const table: FastifyInstance['accessTable'] = [];
  app.decorate('accessTable', table);
  app.decorate(
    'principalOf',
    async (accessToken: string) => (await principalOf(accessToken, tokens, principals)).principal,
  );
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
    const { principal, sessionId } = await authenticate(req, tokens, principals);
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

async function authenticate(req: FastifyRequest, tokens: AccessTokens, principals: Principals) {
  const header = req.headers.authorization;
  const match = header?.match(/^Bearer (\S+)$/);
  if (!match?.[1]) throw new ApiError(401, 'unauthorized', 'Please sign in.');
  return principalOf(match[1], tokens, principals);
}

async function principalOf(accessToken: string, tokens: AccessTokens, principals: Principals) {
  const { userId, sessionId } = await tokens.verifySession(accessToken);
  // An ended session's access tokens stop at once (issue 32, finding 8), not when they expire.
  if (sessionId && (await principals.sessionEnded(sessionId))) {
    throw new ApiError(401, 'unauthorized', 'This session has ended; please sign in.');
  }
  const principal = await principals.load(userId);
  if (!principal) throw new ApiError(401, 'unauthorized', 'Please sign in.');
  return { principal, sessionId };
}
