import { z } from 'zod';
import { PageQuerySchema } from '../envelope.ts';
import { gitRefSchema, isoDateSchema, nameSchema } from './common.ts';

export const VERSION_STATUSES = ['planned', 'testing', 'released', 'archived'] as const;

/** One app's version within a project: reports compare `newRef` against `baseRef`. */
export const VersionSchema = z.object({
  id: z.string(),
  projectId: z.string(),
  projectName: z.string(),
  appId: z.string(),
  appName: z.string(),
  name: z.string(),
  newRef: z.string(),
  baseRef: z.string(),
  plannedRelease: z.string().nullable(),
  status: z.enum(VERSION_STATUSES),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Version = z.infer<typeof VersionSchema>;

const VersionFields = z
  .object({
    projectId: z.uuid('Please choose a project.'),
    appId: z.uuid('Please choose an app.'),
    name: nameSchema(64),
    newRef: gitRefSchema,
    baseRef: gitRefSchema,
    plannedRelease: isoDateSchema.nullable().optional(),
    status: z.enum(VERSION_STATUSES).optional(),
  })
  .strict();

const refsDiffer = (v: { newRef?: string; baseRef?: string }) => !v.newRef || !v.baseRef || v.newRef !== v.baseRef;
const SAME_REFS = { message: 'The base ref must differ from the new ref.', path: ['baseRef'] };

export const VersionInputSchema = VersionFields.refine(refsDiffer, SAME_REFS);
export type VersionInput = z.infer<typeof VersionInputSchema>;
export const VersionUpdateSchema = VersionFields.partial().refine(refsDiffer, SAME_REFS);
export type VersionUpdate = z.infer<typeof VersionUpdateSchema>;

export const VERSION_SORTS = ['name', 'status', 'plannedRelease', 'createdAt'] as const;
export const VersionQuerySchema = PageQuerySchema.extend({
  sortBy: z.enum(VERSION_SORTS).optional(),
  projectId: z.uuid().optional(),
  appId: z.uuid().optional(),
  status: z.enum(VERSION_STATUSES).optional(),
});
