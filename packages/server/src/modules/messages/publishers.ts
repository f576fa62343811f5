import { abilityAllows, isHeartbeat } from '@sextant/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../errors.ts';
import { tokenOf } from '../intake/credentials.ts';
import type { MessagesService, PublishInput } from './service.ts';

/** Who may publish over HTTP (issue 32, finding 4): administrators, and agents with their app's ingestion token. */
export type Publisher = { kind: 'administrator' } | { kind: 'agent'; appId: string };

export type AppIdForToken = (token: string) => Promise<string | null>;

/** The publisher behind a request: 401 without valid credentials, 403 for a user who is not an administrator. */
export async function publisherOf(
  app: FastifyInstance,
  req: FastifyRequest,
  appIdForToken: AppIdForToken,
): Promise<Publisher> {
  const token = tokenOf(req);
  if (!token) throw new ApiError(401, 'unauthorized', 'Send an ingestion token or an access token.');
  const appId = await appIdForToken(token);
  if (appId) return { kind: 'agent', appId };
  const { userData } = await app.principalOf(token);
  if (!abilityAllows(userData.ability, 'manage', 'all')) {
    throw new ApiError(403, 'forbidden', 'Only administrators, agents and the server itself publish messages.');
  }
  return { kind: 'administrator' };
}

/** An agent publishes heart-beats, and only for its own app's reports (or its app, when it serves none). */
export async function checkAgentMessage(
  messages: MessagesService,
  appId: string,
  message: PublishInput,
): Promise<void> {
  if (!message.status || !isHeartbeat(message.status)) {
    throw new ApiError(403, 'forbidden', 'An ingestion token publishes agent heart-beats only.');
  }
  if (!message.report_id) return; // the service answers 400: a heart-beat names its report
  const owner = await messages.ownerOf(message.report_id);
  if (owner?.appId !== appId) {
    throw new ApiError(403, 'forbidden', "This ingestion token may publish only for its own app's reports.");
  }
}
