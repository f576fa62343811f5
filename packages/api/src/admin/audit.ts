import { z } from 'zod';
import { PageQuerySchema } from '../envelope.ts';

export const AUDITED_ENTITIES = [
  'team',
  'app',
  'branch',
  'project',
  'version',
  'requirement',
  'case',
  'user',
  'role',
  'application',
  'settings',
  'report',
  'risk',
  'zentao',
] as const;
export type AuditedEntity = (typeof AUDITED_ENTITIES)[number];
export const AUDIT_ACTIONS = [
  'create',
  'update',
  'delete',
  'rotate-token',
  'import',
  'refresh',
  'approve',
  'reject',
  'reset-link',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AuditLogSchema = z.object({
  id: z.number().int(),
  at: z.string(),
  actorId: z.string().nullable(),
  actorName: z.string(),
  entity: z.string(),
  entityId: z.string(),
  action: z.string(),
  changes: z.record(z.string(), z.object({ from: z.unknown(), to: z.unknown() })),
});
export type AuditLog = z.infer<typeof AuditLogSchema>;

/** Newest first unless `sortDesc=false`. */
export const AuditLogQuerySchema = PageQuerySchema.omit({ sortDesc: true, sortBy: true }).extend({
  entity: z.enum(AUDITED_ENTITIES).optional(),
  entityId: z.string().max(64).optional(),
  userId: z.uuid().optional(),
  sortDesc: z.stringbool().default(true),
});
