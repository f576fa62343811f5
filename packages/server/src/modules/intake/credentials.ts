import { abilityAllows, can, type Settings, type UserData } from '@sextant/api';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../errors.ts';
import type { AppsService } from '../apps/service.ts';
import type { AppRef } from './repository.ts';

/** Who sends coverage: an app's ingestion token (that app only) or a user allowed to create reports. */
export type Sender =
  | { kind: 'app-token'; appId: string }
  | { kind: 'user'; userId: string; everyTeam: boolean; teamIds: Set<string> };

type Principal = { userData: UserData; settings: Settings };

/** `Authorization: Bearer <token>` or `X-Sextant-Token: <token>` (CI systems that reserve Authorization). */
export function tokenOf(req: FastifyRequest): string | null {
  const header = req.headers['x-sextant-token'];
  return tokenFrom(req.headers.authorization, Array.isArray(header) ? header[0] : header);
}

/** The same rule on values read elsewhere (gRPC metadata): the Bearer token first, else X-Sextant-Token. */
export function tokenFrom(authorization: string | undefined, sextantToken: string | undefined): string | null {
  const bearer = authorization?.match(/^Bearer (\S+)$/)?.[1];
  if (bearer) return bearer;
  return sextantToken?.trim() || null;
}

/**
 * The intake routes are declared `access: 'public'` because an ingestion token is not a user; they
 * call `identify` first, so nothing is read or stored for an unknown token (401).
 */
export class IntakeCredentials {
  constructor(
    private readonly apps: AppsService,
    private readonly teamIdsOf: (userId: string) => Promise<Set<string>>,
    private readonly principalOf: (accessToken: string) => Promise<Principal>,
  ) {}

  async identify(req: FastifyRequest): Promise<Sender> {
    const token = tokenOf(req);
    if (!token) throw new ApiError(401, 'unauthorized', 'Send an ingestion token or an access token.');
    const appId = await this.apps.appIdForToken(token);
    if (appId) return { kind: 'app-token', appId };
    let principal: Principal;
    try {
      principal = await this.principalOf(token);
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) {
        throw new ApiError(401, e.error, 'The token is neither an ingestion token nor a valid access token.');
      }
      throw e;
    }
    const { userData, settings } = principal;
    const permissions = {
      ability: userData.ability,
      resourceNums: userData.resourceNums,
      edition: settings.licenseVersion,
    };
    if (!can(permissions, 'create', 'Report')) {
      throw new ApiError(403, 'forbidden', 'Your role may not send coverage (create Report).');
    }
    return {
      kind: 'user',
      userId: userData.userid,
      everyTeam: abilityAllows(userData.ability, 'manage', 'all'),
      teamIds: await this.teamIdsOf(userData.userid),
    };
  }

  /** The app named by `nameOrId` that the sender may send coverage for: 404 unknown, 403 not theirs. */
  async appFor(sender: Sender, nameOrId: string): Promise<AppRef> {
    const candidates = await this.apps.refsNamed(nameOrId);
    if (candidates.length === 0) throw new ApiError(404, 'not-found', `No app named ${JSON.stringify(nameOrId)}.`);
    if (sender.kind === 'app-token') {
      const own = candidates.find((a) => a.id === sender.appId);
      if (!own) throw new ApiError(403, 'forbidden', 'This ingestion token belongs to another app.');
      return own;
    }
    const allowed = candidates.filter((a) => sender.everyTeam || sender.teamIds.has(a.teamId));
    if (allowed.length === 0) {
      throw new ApiError(403, 'forbidden', "You are not a member of this app's team.");
    }
    if (allowed.length > 1) {
      throw new ApiError(409, 'conflict', `Several teams have an app named ${JSON.stringify(nameOrId)}; send its id.`);
    }
    return allowed[0] as AppRef;
  }

  /** The user behind a request, for the uploads list; null for an ingestion token's app. */
  uploaderOf(sender: Sender): string | null {
    return sender.kind === 'user' ? sender.userId : null;
  }
}
