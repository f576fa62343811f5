import { z } from 'zod';

/** Every answer of the API: `{ code, message, data }`; on errors the HTTP status equals `code` (DESIGN §9). */
export function envelopeSchema<T extends z.ZodType>(data: T) {
  return z.object({ code: z.number().int(), message: z.string(), data });
}

export type Envelope<T> = { code: number; message: string; data: T };

/** The closed set of error codes the server answers with; screens branch on them. */
export const ERROR_CODES = [
  'bad-request',
  'validation-failed',
  'unauthorized',
  'token-expired',
  'invalid-credentials',
  'account-locked',
  'account-disabled',
  'invalid-refresh-token',
  'forbidden',
  'edition-forbidden',
  'not-found',
  'conflict',
  'payload-too-large',
  'rate-limited',
  'internal',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** `data` of an error answer. `fields` maps a body field to its message, for forms. */
export const ErrorDataSchema = z
  .object({
    error: z.enum(ERROR_CODES),
    fields: z.record(z.string(), z.string()).optional(),
    requestId: z.string().optional(),
  })
  .nullable();
export type ErrorData = z.infer<typeof ErrorDataSchema>;

/** Paginated lists: `{ items, total }` where `total` counts all matches, not the page. */
export function pageSchema<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), total: z.number().int().nonnegative() });
}

export const PageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  perPage: z.coerce.number().int().min(1).max(200).default(10),
  q: z.string().max(200).optional(),
  sortBy: z.string().max(64).optional(),
  // A query string carries 'true' or 'false'; z.coerce.boolean would read 'false' as true.
  sortDesc: z.stringbool().default(false),
});
export type PageQuery = z.infer<typeof PageQuerySchema>;

/** What a client checks an answer's `data` with: one of these zod schemas (the web parses without eval, see no-eval.ts). */
export type AnswerSchema<T = unknown> = { parse(data: unknown): T };
/** A row's schema, for a client that checks pages of rows (`pageSchema`). */
export type RowSchema<T> = z.ZodType<T>;
/** The `data` of an answer that carries none (deletes, sign-out, password changes). */
export const NoDataSchema = z.null();
