import { z } from 'zod';

/**
 * The names and e-mail addresses a user commits under (issue 34): git blame's author of a changed
 * method (`Name <mail>`) is matched to a user by the account's e-mail and these. An entry with an
 * `@` is an e-mail address, any other a name; both compare case-insensitively, names trimmed.
 */
export const MAX_GIT_IDENTITIES = 20;

const identity = z
  .string()
  .trim()
  .min(1, 'An identity may not be empty.')
  .max(254, 'At most 254 characters.')
  .refine((v) => !/[<>\n\r\t]/.test(v), 'Without < > or line breaks: a name, or an e-mail address.')
  .refine((v) => !v.includes('@') || z.email().safeParse(v).success, 'Not a valid e-mail address.');

export const GitIdentitiesSchema = z.object({
  identities: z
    .array(identity)
    .max(MAX_GIT_IDENTITIES, `At most ${MAX_GIT_IDENTITIES} identities.`)
    .refine((list) => new Set(list.map((v) => v.toLowerCase())).size === list.length, 'An identity is listed twice.'),
});
export type GitIdentities = z.infer<typeof GitIdentitiesSchema>;

/** The parts of a blame author compared with identities: the name before `<`, the e-mail inside `<…>`. */
export function authorParts(author: string | null): { name: string | null; email: string | null } {
  if (!author) return { name: null, email: null };
  const lt = author.indexOf('<');
  const name = (lt < 0 ? author : author.slice(0, lt)).trim().toLowerCase();
  const email = lt < 0 ? '' : (author.slice(lt + 1).split('>')[0] ?? '').trim().toLowerCase();
  return { name: name === '' ? null : name, email: email === '' ? null : email };
}

/** A person's identities split for matching: lower-case e-mail addresses and names. */
export type IdentityKeys = { emails: string[]; names: string[] };

export function identityKeys(identities: readonly string[]): IdentityKeys {
  const emails = new Set<string>();
  const names = new Set<string>();
  for (const raw of identities) {
    const v = raw.trim().toLowerCase();
    if (v === '') continue;
    (v.includes('@') ? emails : names).add(v);
  }
  return { emails: [...emails], names: [...names] };
}

/** Whether a blame author is one of these identities (its e-mail or, failing that, its name). */
export function authorIs(author: string | null, keys: IdentityKeys): boolean {
  const { name, email } = authorParts(author);
  return (email !== null && keys.emails.includes(email)) || (name !== null && keys.names.includes(name));
}
