import { z } from 'zod';
import { PageQuerySchema } from '../envelope.ts';

export const BranchSchema = z.object({
  id: z.string(),
  appId: z.string(),
  name: z.string(),
  commit: z.string(),
  tracked: z.boolean(),
  /** False when the last refresh no longer found the branch in the repository. */
  present: z.boolean(),
  refreshedAt: z.string(),
});
export type Branch = z.infer<typeof BranchSchema>;

export const BranchUpdateSchema = z.object({ tracked: z.boolean() }).strict();

export const BRANCH_SORTS = ['name', 'tracked', 'refreshedAt'] as const;
export const BranchQuerySchema = PageQuerySchema.extend({
  sortBy: z.enum(BRANCH_SORTS).optional(),
  appId: z.uuid().optional(),
  tracked: z.stringbool().optional(),
});

export const BranchRefreshSchema = z.object({
  added: z.array(z.string()),
  moved: z.array(z.string()),
  gone: z.array(z.string()),
  total: z.number().int(),
});
export type BranchRefresh = z.infer<typeof BranchRefreshSchema>;
