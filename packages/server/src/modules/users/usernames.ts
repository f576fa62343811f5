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
