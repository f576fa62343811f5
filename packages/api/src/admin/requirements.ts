import { z } from 'zod';
import { PageQuerySchema } from '../envelope.ts';
import { nameSchema, UserRefSchema } from './common.ts';

export const REQUIREMENT_STATUSES = ['open', 'in-progress', 'done', 'closed'] as const;

/** REQ-123 style keys, or an external ZenTao story id (digits). */
export const requirementKeySchema = z
  .string()
  .trim()
  .min(1, 'Please enter a key.')
  .max(64, 'At most 64 characters.')
  .regex(/^([A-Za-z][A-Za-z0-9_]*-\d+|\d+)$/, 'Use a key like REQ-123 or a numeric story id.');

export const RequirementSchema = z.object({
  id: z.string(),
  key: z.string(),
  title: z.string(),
  projectId: z.string(),
  projectName: z.string(),
  versionId: z.string().nullable(),
  versionName: z.string().nullable(),
  owner: UserRefSchema.nullable(),
  status: z.enum(REQUIREMENT_STATUSES),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Requirement = z.infer<typeof RequirementSchema>;

export const RequirementInputSchema = z
  .object({
    key: requirementKeySchema,
    title: nameSchema(300),
    projectId: z.uuid('Please choose a project.'),
    versionId: z.uuid().nullable().optional(),
    ownerId: z.uuid().nullable().optional(),
    status: z.enum(REQUIREMENT_STATUSES).optional(),
  })
  .strict();
export type RequirementInput = z.infer<typeof RequirementInputSchema>;
export const RequirementUpdateSchema = RequirementInputSchema.partial();
export type RequirementUpdate = z.infer<typeof RequirementUpdateSchema>;

export const REQUIREMENT_SORTS = ['key', 'title', 'status', 'createdAt'] as const;
export const RequirementQuerySchema = PageQuerySchema.extend({
  sortBy: z.enum(REQUIREMENT_SORTS).optional(),
  projectId: z.uuid().optional(),
  versionId: z.uuid().optional(),
  ownerId: z.uuid().optional(),
  status: z.enum(REQUIREMENT_STATUSES).optional(),
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The rule that links a commit to a requirement: its message contains the key as a whole word
 * (REQ-12 does not match inside REQ-123 or XREQ-12), letters compared without case.
 */
export function requirementKeysIn(message: string, keys: readonly string[]): string[] {
  return keys.filter((key) => new RegExp(`(?<![A-Za-z0-9_-])${escapeRegExp(key)}(?![A-Za-z0-9_])`, 'i').test(message));
}
