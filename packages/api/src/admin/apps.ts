import { z } from 'zod';
import { PageQuerySchema } from '../envelope.ts';
import { gitRefSchema, nameSchema, repoUrlSchema } from './common.ts';

export const APP_LANGUAGES = [
  'java',
  'kotlin',
  'javascript',
  'typescript',
  'python',
  'go',
  'c',
  'cpp',
  'other',
] as const;
/** Where coverage comes from: files uploaded (cli, CI) or a JaCoCo agent running beside the app. */
export const COVERAGE_SOURCES = ['upload', 'jacoco-agent'] as const;
export const APP_STATUSES = ['active', 'archived'] as const;

/** An environment's envType, e.g. dev, test, staging. */
export const envTypeSchema = z
  .string()
  .trim()
  .regex(/^[a-z0-9][a-z0-9_-]{0,31}$/, 'Lower-case letters, digits, "-" and "_", at most 32.');

export const AppSchema = z.object({
  id: z.string(),
  teamId: z.string(),
  teamName: z.string(),
  name: z.string(),
  language: z.enum(APP_LANGUAGES),
  repoUrl: z.string(),
  defaultBranch: z.string(),
  coverageSource: z.enum(COVERAGE_SOURCES),
  buildCommand: z.string().nullable(),
  environments: z.array(z.string()),
  status: z.enum(APP_STATUSES),
  tokenIssuedAt: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type App = z.infer<typeof AppSchema>;

export const AppInputSchema = z
  .object({
    teamId: z.uuid('Please choose a team.'),
    name: nameSchema(100),
    language: z.enum(APP_LANGUAGES),
    repoUrl: repoUrlSchema,
    defaultBranch: gitRefSchema.optional(),
    coverageSource: z.enum(COVERAGE_SOURCES).optional(),
    buildCommand: z.string().trim().max(1000, 'At most 1000 characters.').nullable().optional(),
    environments: z
      .array(envTypeSchema)
      .max(20)
      .refine((list) => new Set(list).size === list.length, 'Each environment once.')
      .optional(),
    status: z.enum(APP_STATUSES).optional(),
  })
  .strict();
export type AppInput = z.infer<typeof AppInputSchema>;
export const AppUpdateSchema = AppInputSchema.partial();
export type AppUpdate = z.infer<typeof AppUpdateSchema>;

/** The ingestion token appears in this answer only (create and rotate); the server keeps its hash. */
export const AppWithTokenSchema = AppSchema.extend({ ingestionToken: z.string() });

export const APP_SORTS = ['name', 'language', 'status', 'createdAt', 'updatedAt'] as const;
export const AppQuerySchema = PageQuerySchema.extend({
  sortBy: z.enum(APP_SORTS).optional(),
  teamId: z.uuid().optional(),
  status: z.enum(APP_STATUSES).optional(),
  language: z.enum(APP_LANGUAGES).optional(),
});

/** `git ls-remote` against the app's repository: how many refs it lists, or git's own error line. */
export const ConnectionCheckSchema = z.object({
  ok: z.boolean(),
  refs: z.number().int().nullable(),
  error: z.string().nullable(),
});
export type ConnectionCheck = z.infer<typeof ConnectionCheckSchema>;
