import {
  AgentBeatAnswerSchema,
  AgentHeartbeatRequestSchema,
  AgentSchema,
  abilityAllows,
  envelopeSchema,
  IdParamsSchema,
  PATHS,
  PageQuerySchema,
  pageSchema,
  UploadSchema,
} from '@sextant/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppsService } from '../apps/service.ts';
import type { AgentsService } from './agents-service.ts';
import type { IntakeCredentials } from './credentials.ts';
import type { UploadsService } from './uploads-service.ts';

const UploadsQuerySchema = PageQuerySchema.pick({ page: true, perPage: true }).extend({ appId: z.uuid().optional() });

type Deps = {
  credentials: IntakeCredentials;
  uploads: UploadsService;
  agents: AgentsService;
  apps: AppsService;
  teamIdsOf: (userId: string) => Promise<Set<string>>;
};

/** The uploads list, agent heart-beats and an app's agents; the upload itself is in upload-route.ts. */
export function intakeRoutes(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['coverage'];
  r.get(PATHS.uploads, {
    config: { access: { action: 'read', resource: 'Report' } },
    schema: {
      tags,
      description: "Uploads, newest first: every app's for administrators, else those of the caller's teams.",
      querystring: UploadsQuerySchema,
      response: { 200: envelopeSchema(pageSchema(UploadSchema)) },
    },
    handler: async (req) => {
      const user = req.principal?.userData;
      if (!user) throw new Error('read Report without a principal');
      const teamIds = abilityAllows(user.ability, 'manage', 'all') ? null : [...(await deps.teamIdsOf(user.userid))];
      return { code: 200, message: 'OK', data: await deps.uploads.list({ ...req.query, teamIds }) };
    },
  });
  r.post(PATHS.agentHeartbeat, {
    config: { access: 'public' },
    schema: {
      tags,
      description:
        "A `sextant agent` heart-beat; the same credentials as an upload (the app's ingestion token, or a user " +
        "who may create reports in the app's team). The IP is the request's.",
      body: AgentHeartbeatRequestSchema,
      response: { 200: envelopeSchema(AgentBeatAnswerSchema) },
    },
    handler: async (req) => {
      const sender = await deps.credentials.identify(req);
      const target = await deps.credentials.appFor(sender, req.body.app);
      return {
        code: 200,
        message: 'Heart-beat recorded.',
        data: await deps.agents.heartbeat(target, req.body, req.ip),
      };
    },
  });
  r.get(PATHS.appAgents, {
    config: { access: { action: 'read', resource: 'App' } },
    schema: { tags, params: IdParamsSchema, response: { 200: envelopeSchema(z.array(AgentSchema)) } },
    handler: async (req) => ({
      code: 200,
      message: 'OK',
      data: await deps.agents.list(await deps.apps.ref(req.params.id)),
    }),
  });
}
