import { ApiError } from '../../errors.ts';

/** Control, format and other default-ignorable characters: invisible in a name, so never part of one. */
export const INVISIBLE_CHARACTERS = /[\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}]/gu;

/**
 * The form in which usernames are compared and kept unique (issue 32, finding 7): invisible
 * characters dropped, NFKC (fullwidth and compatibility forms folded), lower case. `Admin`,
 * `ａｄｍｉｎ` and `admin` + U+200B all give `admin`. Migration 0007 computes the same for old rows.
 */
export function usernameKey(name: string): string {
  return name.replace(INVISIBLE_CHARACTERS, '').normalize('NFKC').replace(INVISIBLE_CHARACTERS, '').toLowerCase();
}

const USERNAME_TAKEN = 'This username is already in use.';
export const EMAIL_TAKEN = 'This email is already in use.';

/**
 * 409 when an account or a pending access request already holds the name (compared form `key`) or
 * the (lower-case) email. The messages of specification point 5 stay: an applicant must learn why a
 * request cannot be made; the per-network limit on requests keeps them from listing the accounts.
 */
export function refuseTakenNames(holders: { key: string; email: string }[], key: string, email: string): void {
  const fields: Record<string, string> = {};
  for (const row of holders) {
    if (row.key === key) fields.username = USERNAME_TAKEN;
    if (row.email === email) fields.email = EMAIL_TAKEN;
  }
  if (fields.username || fields.email) {
    throw new ApiError(409, 'conflict', fields.username ?? fields.email ?? USERNAME_TAKEN, fields);
  }
}
