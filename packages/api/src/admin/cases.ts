import { z } from 'zod';
import { ERROR_CODES, PageQuerySchema } from '../envelope.ts';
import { nameSchema, UserRefSchema } from './common.ts';

export const CASE_TYPES = ['manual', 'automated'] as const;

export const caseKeySchema = z
  .string()
  .trim()
  .min(1, 'Please enter a key.')
  .max(64, 'At most 64 characters.')
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]*$/, 'Letters, digits, ".", ":", "-" and "_" only.');

/** A tag; the CSV import separates tags with ';', so a tag holds neither ';' nor ','. */
export const caseTagSchema = z
  .string()
  .trim()
  .min(1, 'Empty tag.')
  .max(32, 'At most 32 characters per tag.')
  .regex(/^[^;,\p{Cc}]+$/u, 'A tag cannot contain ";" or ",".');

export const CaseSchema = z.object({
  id: z.string(),
  key: z.string(),
  title: z.string(),
  appId: z.string(),
  appName: z.string(),
  requirementId: z.string().nullable(),
  requirementKey: z.string().nullable(),
  type: z.enum(CASE_TYPES),
  tags: z.array(z.string()),
  owner: UserRefSchema.nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Case = z.infer<typeof CaseSchema>;

export const CaseInputSchema = z
  .object({
    key: caseKeySchema,
    title: nameSchema(300),
    appId: z.uuid('Please choose an app.'),
    requirementId: z.uuid().nullable().optional(),
    type: z.enum(CASE_TYPES).optional(),
    tags: z.array(caseTagSchema).max(20, 'At most 20 tags.').optional(),
    ownerId: z.uuid().nullable().optional(),
  })
  .strict();
export type CaseInput = z.infer<typeof CaseInputSchema>;
export const CaseUpdateSchema = CaseInputSchema.partial();
export type CaseUpdate = z.infer<typeof CaseUpdateSchema>;

export const CASE_SORTS = ['key', 'title', 'type', 'createdAt'] as const;
export const CaseQuerySchema = PageQuerySchema.extend({
  sortBy: z.enum(CASE_SORTS).optional(),
  appId: z.uuid().optional(),
  requirementId: z.uuid().optional(),
  ownerId: z.uuid().optional(),
  type: z.enum(CASE_TYPES).optional(),
  tag: z.string().max(32).optional(),
});

/**
 * CSV import (`POST /api/cases/import?appId=`, body `text/csv`): a header row naming these columns
 * (any order; key and title required), tags separated by ';', requirement by key, owner by username.
 */
export const CASE_CSV_COLUMNS = ['key', 'title', 'type', 'requirement', 'tags', 'owner'] as const;
export const CASE_CSV_REQUIRED = ['key', 'title'] as const;
export const CASE_IMPORT_MAX_ROWS = 5000;

export const CaseImportQuerySchema = z.object({ appId: z.uuid('Please choose an app.') });
export const CaseImportResultSchema = z.object({ imported: z.number().int() });

/** One problem of a refused import: `row` is the line in the file (the header is line 1); 0 for the whole file. */
export const CaseImportProblemSchema = z.object({
  row: z.number().int(),
  column: z.string().nullable(),
  message: z.string(),
});
export type CaseImportProblem = z.infer<typeof CaseImportProblemSchema>;

/** `data` of a 400 answer to an import: the usual error fields plus every problem found. */
export const CaseImportRejectionSchema = z.object({
  error: z.enum(ERROR_CODES),
  fields: z.record(z.string(), z.string()).optional(),
  rows: z.array(CaseImportProblemSchema).optional(),
});
