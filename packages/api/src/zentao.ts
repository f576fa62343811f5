import { z } from 'zod';

/**
 * ZenTao (`/zentao`): the address and API account an administrator sets, whether the screen may embed
 * ZenTao, and what an import of its products' stories and test cases did (issue 35).
 */

/** ZenTao's address: http(s), no user or password in it, no query or fragment (a path is fine: /zentao/). */
export const zentaoUrlSchema = z
  .string()
  .trim()
  .max(2000, 'At most 2000 characters.')
  .refine((text) => {
    if (text === '') return true;
    try {
      const url = new URL(text);
      return (
        (url.protocol === 'http:' || url.protocol === 'https:') &&
        !url.username &&
        !url.password &&
        !url.search &&
        !url.hash
      );
    } catch {
      return false;
    }
  }, 'Use an http(s) address without user, password, query or fragment, e.g. https://zentao.example.com/.');

/** What an administrator reads back: never the password, only whether one is stored. */
export const ZentaoConfigSchema = z.object({
  url: z.string(),
  account: z.string(),
  passwordSet: z.boolean(),
});
export type ZentaoConfig = z.infer<typeof ZentaoConfigSchema>;

/** Saving the settings: the password may be left out to keep the stored one; an empty address clears all. */
export const ZentaoConfigInputSchema = z
  .object({
    url: zentaoUrlSchema,
    account: z.string().trim().max(100, 'At most 100 characters.'),
    password: z.string().max(200, 'At most 200 characters.').optional(),
  })
  .strict();
export type ZentaoConfigInput = z.infer<typeof ZentaoConfigInputSchema>;

export const ZENTAO_IMPORT_KINDS = ['product', 'requirement', 'case'] as const;

/** Why an item was refused, for the screen's language (`reason` is the server's English sentence). */
export const ZENTAO_REFUSAL_CODES = ['no-project', 'no-app', 'lite', 'duplicate', 'title', 'other-project'] as const;

/** One ZenTao item the import did not take, and why. */
export const ZentaoRefusalSchema = z.object({
  kind: z.enum(ZENTAO_IMPORT_KINDS),
  code: z.enum(ZENTAO_REFUSAL_CODES),
  zentaoId: z.number().int(),
  title: z.string(),
  reason: z.string(),
});
export type ZentaoRefusal = z.infer<typeof ZentaoRefusalSchema>;

const countsSchema = z.object({
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  refused: z.number().int(),
});

/** What one import did: requirements from stories, cases from test cases, keyed by ZenTao ids. */
export const ZentaoImportSummarySchema = z.object({
  at: z.string(),
  /** 'schedule' for the cron job, else the administrator's username. */
  by: z.string(),
  products: z.number().int(),
  requirements: countsSchema,
  cases: countsSchema,
  /** The first refusals (at most 100), for the screen. */
  refusals: z.array(ZentaoRefusalSchema),
});
export type ZentaoImportSummary = z.infer<typeof ZentaoImportSummarySchema>;

/** Why the screen shows a card instead of the frame. */
export const ZENTAO_FRAME_VERDICTS = ['allowed', 'x-frame-options', 'frame-ancestors', 'unreachable'] as const;

/** The `/zentao` screen: where ZenTao is, whether its answer lets us frame it, the last import. */
export const ZentaoStatusSchema = z.object({
  url: z.string().nullable(),
  frame: z.object({ verdict: z.enum(ZENTAO_FRAME_VERDICTS), detail: z.string() }).nullable(),
  /** Whether an import can run (address, account and password are set). */
  importReady: z.boolean(),
  lastImport: ZentaoImportSummarySchema.nullable(),
});
export type ZentaoStatus = z.infer<typeof ZentaoStatusSchema>;
