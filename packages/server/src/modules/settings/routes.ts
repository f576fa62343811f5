import { envelopeSchema, PATHS, type Settings, SettingsSchema } from '@sextant/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { settings } from '../../db/schema/index.ts';
import { ApiError } from '../../errors.ts';
import { actorOf } from '../audit/actor.ts';
import { type AuditEntry, type AuditService, changedFields } from '../audit/service.ts';
import type { Principals } from '../auth/principals.ts';

/** Rules across fields: a passing grade above the excellent one, or warn above serious, makes no sense. */
function refuseInconsistent(next: Settings): void {
  const fields: Record<string, string> = {};
  if (next.passingGrade > next.excellentGrade) {
    fields.passingGrade = 'The passing grade must not be above the excellent grade.';
  }
  if (next.traceWarnThreshold >= next.traceSeriousThreshold) {
    fields.traceWarnThreshold = 'The warning threshold must be below the serious one.';
  }
  const first = Object.values(fields)[0];
  if (first) throw new ApiError(400, 'validation-failed', first, fields);
}

export function settingsRoutes(app: FastifyInstance, principals: Principals, audit: AuditService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(PATHS.settings, {
    config: { access: { action: 'read', resource: 'Auth' } },
    schema: { tags: ['settings'], response: { 200: envelopeSchema(SettingsSchema) } },
    handler: async () => ({ code: 200, message: 'OK', data: await principals.settings() }),
  });
  r.patch(PATHS.settings, {
    config: { access: { action: 'update', resource: 'Setting' } },
    schema: {
      tags: ['settings'],
      body: SettingsSchema.partial().strict(),
      response: { 200: envelopeSchema(SettingsSchema) },
    },
    handler: async (req) => {
      const before = await principals.settings();
      refuseInconsistent({ ...before, ...req.body });
      const entries = Object.entries(req.body).filter(([, v]) => v !== undefined);
      await audit.audited(actorOf(req), async (tx) => {
        for (const [key, value] of entries) {
          await tx.insert(settings).values({ key, value }).onConflictDoUpdate({ target: settings.key, set: { value } });
        }
        const changes = changedFields(before, { ...before, ...Object.fromEntries(entries) });
        return {
          result: null,
          entry: { entity: 'settings', entityId: 'system', action: 'update', changes } satisfies AuditEntry,
        };
      });
      principals.invalidate();
      const after = await principals.settings();
      return { code: 200, message: 'Settings saved.', data: after };
    },
  });
}
