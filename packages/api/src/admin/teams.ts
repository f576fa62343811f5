import { z } from 'zod';
import { PageQuerySchema } from '../envelope.ts';
import { descriptionSchema, nameSchema, UserRefSchema } from './common.ts';

export const TeamSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  leader: UserRefSchema.nullable(),
  members: z.array(UserRefSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Team = z.infer<typeof TeamSchema>;

export const TeamInputSchema = z
  .object({
    name: nameSchema(100),
    leaderId: z.uuid().nullable().optional(),
    memberIds: z.array(z.uuid()).max(500).optional(),
    description: descriptionSchema.optional(),
  })
  .strict();
export type TeamInput = z.infer<typeof TeamInputSchema>;
export const TeamUpdateSchema = TeamInputSchema.partial();
export type TeamUpdate = z.infer<typeof TeamUpdateSchema>;

export const TEAM_SORTS = ['name', 'createdAt', 'updatedAt'] as const;
export const TeamQuerySchema = PageQuerySchema.extend({
  sortBy: z.enum(TEAM_SORTS).optional(),
  memberId: z.uuid().optional(),
});
