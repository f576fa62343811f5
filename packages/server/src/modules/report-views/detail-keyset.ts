import { type SQL, sql } from 'drizzle-orm';
import { ApiError } from '../../errors.ts';

/** How a sort key's value travels in a cursor and is cast back in SQL. */
export type KeyType = 'float8' | 'int8' | 'text';

/** Where a keyset page starts: after the row with this sort value (null: an absent figure) and id. */
export type Cursor = { value: string | number | null; id: string };

/**
 * Cursors are opaque to clients: base64url of `[value, id]`. A float travels as JSON's shortest exact
 * form, so the row compared against is the very row the page ended on.
 */
export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.value, cursor.id])).toString('base64url');
}

export function decodeCursor(text: string, type: KeyType): Cursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw badCursor();
  }
  if (!Array.isArray(parsed) || parsed.length !== 2) throw badCursor();
  const [value, id] = parsed as [unknown, unknown];
  if (typeof id !== 'string' || !/^\d{1,18}$/.test(id)) throw badCursor();
  if (value === null) return { value, id };
  if (type === 'float8' && typeof value === 'number' && Number.isFinite(value)) return { value, id };
  if (type === 'int8' && typeof value === 'string' && /^-?\d{1,18}$/.test(value)) return { value, id };
  if (type === 'text' && typeof value === 'string') return { value, id };
  throw badCursor();
}

function badCursor(): ApiError {
  return new ApiError(400, 'bad-request', 'The page cursor (after) is not one this sort and filter gave.');
}

/**
 * A keyset page in two parts, each an index range walk (an index on (report_id, key, id) serves both
 * directions): rows with a sort value past the cursor, then (absent figures sort last either way) the
 * rows without one. The caller runs `present` and, when it is short of the page, `absent`.
 */
export function keysetParts(
  key: SQL,
  type: KeyType,
  desc: boolean,
  after: Cursor | undefined,
): { present: SQL | null; presentOrder: SQL; absent: SQL; absentOrder: SQL } {
  const cmp = sql.raw(desc ? '<' : '>');
  const dir = sql.raw(desc ? 'desc' : 'asc');
  const id = sql.raw('d.id');
  let present: SQL | null = sql`${key} is not null`;
  let absent: SQL = sql`${key} is null`;
  if (after && after.value === null) {
    present = null;
    absent = sql`${key} is null and ${id} ${cmp} ${after.id}::int8`;
  } else if (after) {
    present = sql`(${key}, ${id}) ${cmp} (${after.value}::${sql.raw(type)}, ${after.id}::int8)`;
  }
  // Both parts order by (key, id) in the index's own order (no `nulls` clause: ascending walks it forwards,
  // descending backwards). Among absent figures the key is null throughout, so the id alone decides; saying
  // the key anyway lets the planner walk the index rather than sort (IS NULL does not make the key constant
  // for ordering as `=` would).
  const order = sql`${key} ${dir}, ${id} ${dir}`;
  return { present, presentOrder: order, absent, absentOrder: order };
}
