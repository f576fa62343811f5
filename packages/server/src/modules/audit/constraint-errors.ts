import { ApiError } from '../../errors.ts';

type PgFailure = { code: string; constraint?: string; table?: string };

function pgFailure(e: unknown): PgFailure | undefined {
  for (let cur: unknown = e, depth = 0; cur && depth < 4; cur = (cur as { cause?: unknown }).cause, depth++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return cur as PgFailure;
  }
  return undefined;
}

/** What a constraint means to the person filling the form: the field it concerns and the message. */
export type ConstraintMeaning = { field?: string; message: string };

/**
 * The database enforces uniqueness and references (so two concurrent requests cannot both win); this
 * turns the violation into the API's answer. Unique and FK-on-insert failures point at a field (a
 * missing referenced row reads as a bad value); an FK failure on delete says who still refers to it.
 */
export function asApiError(
  e: unknown,
  rules: { entity: string; meanings: Record<string, ConstraintMeaning>; referencedBy?: Record<string, string> },
): unknown {
  const { entity, meanings, referencedBy = {} } = rules;
  const failure = pgFailure(e);
  if (!failure) return e;
  const meaning = failure.constraint ? meanings[failure.constraint] : undefined;
  if (failure.code === '23505' && meaning) {
    return new ApiError(409, 'conflict', meaning.message, meaning.field ? { [meaning.field]: meaning.message } : {});
  }
  // 23503: foreign_key_violation; 23001: restrict_violation (ON DELETE RESTRICT).
  if (failure.code === '23503' || failure.code === '23001') {
    if (meaning) {
      return new ApiError(
        400,
        'validation-failed',
        meaning.message,
        meaning.field ? { [meaning.field]: meaning.message } : {},
      );
    }
    const by = (failure.table && referencedBy[failure.table]) ?? failure.table ?? 'other records';
    return new ApiError(409, 'conflict', `This ${entity} is still used by ${by}; remove or reassign those first.`);
  }
  return e;
}

export { containsPattern } from '../../lib/table-repository.ts';
