import { z } from 'zod';
import { gitRefSchema } from './admin/common.ts';

/**
 * Issue 38: the class files of a commit, which JaCoCo's report needs to turn execution data into
 * figures. `sextant agent --jacoco` sends the list of a build's classes (name and sha256) first;
 * the server answers which contents it lacks, the agent sends those once (a zip/jar or a tar), and
 * the list is recorded when nothing is missing. A restarted agent sends only the list.
 */
const sha256Schema = z.string().regex(/^[0-9a-f]{64}$/, 'A sha256 in 64 lower-case hex digits.');

/** A JVM internal class name (`demo/Shop$Item`): letters, digits, `_ $ - /`, relative, no `..`. */
export const jvmClassNameSchema = z
  .string()
  .max(1000, 'At most 1000 characters.')
  .refine(
    (name) => name.split('/').every((part) => /^[\p{L}\p{N}_$.-]+$/u.test(part) && part !== '.' && part !== '..'),
    'A JVM class name such as demo/Shop$Item (letters, digits, _ $ . - and / between parts).',
  );

export const ClassSetRequestSchema = z.object({
  app: z.string().trim().min(1).max(200),
  commit: gitRefSchema,
  classes: z
    .array(z.object({ name: jvmClassNameSchema, sha256: sha256Schema }))
    .min(1, 'Send at least one class file.')
    .max(200_000, 'At most 200,000 class files.'),
});
export type ClassSetRequest = z.infer<typeof ClassSetRequestSchema>;

/** POST /api/coverage/class-sets answer: recorded when every content was already stored. */
export const ClassSetResultSchema = z.object({
  recorded: z.boolean(),
  classes: z.number().int(),
  /** The sha256 of the contents to send (POST /api/coverage/class-files) before the list is recorded. */
  missing: z.array(z.string()),
});
export type ClassSetResult = z.infer<typeof ClassSetResultSchema>;

/** POST /api/coverage/class-files?app= query. */
export const ClassFilesQuerySchema = z.object({ app: z.string().trim().min(1).max(200) });

/** POST /api/coverage/class-files answer. */
export const ClassFilesResultSchema = z.object({
  /** Class files newly stored. */
  stored: z.number().int(),
  /** Class files of the archive the server already had. */
  known: z.number().int(),
});
export type ClassFilesResult = z.infer<typeof ClassFilesResultSchema>;
