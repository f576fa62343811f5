import type { IdentityKeys } from '@sextant/api';
import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';

/**
 * The parts of a blame author (`Name <mail>`) as `authorParts` of packages/api/src/git-identities.ts
 * reads them, in SQL: the lower-case e-mail inside `<…>` and the trimmed lower-case name before it.
 */
export const authorEmailSql = (column: SQLWrapper): SQL =>
  sql`lower(btrim(split_part(split_part(${column}, '<', 2), '>', 1)))`;
export const authorNameSql = (column: SQLWrapper): SQL => sql`lower(btrim(split_part(${column}, '<', 1)))`;

/**
 * Whether the author in `column` is one of a person's identities (false when they list none). `lists`
 * stands in for the two lists' values (placeholders of a statement built once and filled per call).
 */
export function authorIsSql(
  column: SQLWrapper,
  keys: IdentityKeys,
  lists: { emails: SQLWrapper; names: SQLWrapper } = { emails: sql.param(keys.emails), names: sql.param(keys.names) },
): SQL {
  const parts: SQL[] = [];
  if (keys.emails.length > 0) parts.push(sql`${authorEmailSql(column)} = any(${lists.emails}::text[])`);
  if (keys.names.length > 0) parts.push(sql`${authorNameSql(column)} = any(${lists.names}::text[])`);
  return parts.length > 0 ? sql`(${sql.join(parts, sql` or `)})` : sql`false`;
}
