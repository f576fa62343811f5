import { findUnsafeText, MAX_TEXT_FIELD_LENGTH, type TextRules } from '@sextant/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.ts';

/** Text of the URL and of metadata fields: one line. */
export const SINGLE_LINE: TextRules = { multiline: false, maxLength: MAX_TEXT_FIELD_LENGTH };
const IN_BODY: TextRules = { multiline: true, maxLength: MAX_TEXT_FIELD_LENGTH };
/** A body that is one text document (a CSV import) is bounded by the route's body limit instead. */
const WHOLE_DOCUMENT: TextRules = { multiline: true, maxLength: Number.POSITIVE_INFINITY };

/** Headers a route reads as input of its own (the rest are HTTP's, checked by Node's parser). */
const INPUT_HEADERS = ['x-sextant-token'] as const;

/**
 * Refuses with 400 and the field's path when `value` holds text no field may hold (NUL, lone
 * surrogates, control characters, over-long strings; see packages/api text-input.ts).
 */
export function refuseUnsafeText(value: unknown, rules: TextRules = IN_BODY): void {
  const found = findUnsafeText(value, rules);
  if (found) throw new ApiError(400, 'validation-failed', 'Validation failed.', { [found.path]: found.message });
}

function checkRequest(req: FastifyRequest): void {
  refuseUnsafeText(req.params, SINGLE_LINE);
  refuseUnsafeText(req.query, SINGLE_LINE);
  refuseUnsafeText(
    Object.fromEntries(INPUT_HEADERS.filter((h) => req.headers[h] !== undefined).map((h) => [h, req.headers[h]])),
    SINGLE_LINE,
  );
  refuseUnsafeText(req.body, typeof req.body === 'string' ? WHOLE_DOCUMENT : IN_BODY);
}

/**
 * Issue 32, finding 6: one check of every route's path parameters, query, body and input headers,
 * before its schema and handler, so that no such string reaches a service or the database.
 * Registered after the access check: an unauthenticated caller learns nothing about a route's fields.
 * Multipart form fields arrive later, inside the handler; the upload route calls `refuseUnsafeText`.
 */
export function registerTextGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (req) => checkRequest(req));
}
