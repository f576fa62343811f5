import { z } from 'zod';
import { PageQuerySchema } from '../envelope.ts';
import { isoDateSchema, nameSchema, UserRefSchema } from './common.ts';

export const PROJECT_STATUSES = ['planned', 'active', 'done', 'archived'] as const;

export const ProjectSchema = z.object({
  id: z.string(),
  name: z.string(),
  teamId: z.string(),
  teamName: z.string(),
  owner: UserRefSchema.nullable(),
  apps: z.array(z.object({ id: z.string(), name: z.string() })),
  startDate: z.string().nullable(),
  endDate: z.string().nullable(),
  status: z.enum(PROJECT_STATUSES),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Project = z.infer<typeof ProjectSchema>;

const ProjectFields = z
  .object({
    name: nameSchema(100),
    teamId: z.uuid('Please choose a team.'),
    ownerId: z.uuid().nullable().optional(),
    appIds: z.array(z.uuid()).max(200).optional(),
    startDate: isoDateSchema.nullable().optional(),
    endDate: isoDateSchema.nullable().optional(),
    status: z.enum(PROJECT_STATUSES).optional(),
  })
  .strict();

const endsAfterStart = (p: { startDate?: string | null; endDate?: string | null }) =>
  !p.startDate || !p.endDate || p.endDate >= p.startDate;
const ENDS_BEFORE_START = { message: 'The end date is before the start date.', path: ['endDate'] };

export const ProjectInputSchema = ProjectFields.refine(endsAfterStart, ENDS_BEFORE_START);
export type ProjectInput = z.infer<typeof ProjectInputSchema>;
export const ProjectUpdateSchema = ProjectFields.partial().refine(endsAfterStart, ENDS_BEFORE_START);
export type ProjectUpdate = z.infer<typeof ProjectUpdateSchema>;

export const PROJECT_SORTS = ['name', 'status', 'startDate', 'endDate', 'createdAt'] as const;
export const ProjectQuerySchema = PageQuerySchema.extend({
  sortBy: z.enum(PROJECT_SORTS).optional(),
  teamId: z.uuid().optional(),
  appId: z.uuid().optional(),
  status: z.enum(PROJECT_STATUSES).optional(),
});
