import { z } from 'zod';

/** Names and titles are stored and shown as text (markup included), never interpreted. */
export function nameSchema(max = 100) {
  return z
    .string()
    .trim()
    .min(1, 'Please enter a value.')
    .max(max, `At most ${max} characters.`)
    .regex(/^[^\p{Cc}]*$/u, 'Control characters are not allowed.');
}

export const descriptionSchema = z.string().trim().max(2000, 'At most 2000 characters.');

export const isoDateSchema = z.iso.date('Use the form YYYY-MM-DD.');

const REF_FORBIDDEN = /[\p{Cc}\s~^:?*[\\]|\.\.|@\{|\/\/|\/\.|^\.|\.lock$|[/.]$/u;

/**
 * A git reference as `git check-ref-format` accepts it, and never an option: refs reach git as arguments
 * (the server also uses `--end-of-options`), so a leading '-' is refused outright.
 */
export function isSafeGitRef(ref: string): boolean {
  return ref.length > 0 && ref.length <= 256 && !ref.startsWith('-') && ref !== '@' && !REF_FORBIDDEN.test(ref);
}

export const gitRefSchema = z
  .string()
  .trim()
  .min(1, 'Please enter a git ref.')
  .max(256, 'At most 256 characters.')
  .refine(isSafeGitRef, 'Not a valid git ref (no spaces, "..", ~ ^ : ? * [ \\, nor a leading "-").');

// Characters a repository location may hold: no shell metacharacters, quotes, spaces or backslashes.
const URL_CHARSET = /^[A-Za-z0-9._~:/@%+=,-]+$/;
const HTTPS = /^https:\/\/[A-Za-z0-9][A-Za-z0-9.-]*(:\d{1,5})?(\/[A-Za-z0-9._~%+=,@:-]+)+\/?$/;
const SSH_URL =
  /^ssh:\/\/([A-Za-z0-9][A-Za-z0-9._-]*@)?[A-Za-z0-9][A-Za-z0-9.-]*(:\d{1,5})?(\/[A-Za-z0-9._~%+=,@-]+)+\/?$/;
const SCP_LIKE = /^[A-Za-z0-9][A-Za-z0-9._-]*@[A-Za-z0-9][A-Za-z0-9.-]*:[A-Za-z0-9._~/-]*[A-Za-z0-9._~-]$/;
const LOCAL_PATH = /^(\/[A-Za-z0-9._~+=,@-]+)+\/?$/;

/**
 * https, ssh (URL or user@host:path) or an absolute path on the server. Anything else — another transport
 * (ext::, file://), a leading '-' that git would read as an option, shell metacharacters — is refused
 * before any process runs.
 */
export function isSafeRepoUrl(url: string): boolean {
  if (url.length > 1000 || url.startsWith('-') || !URL_CHARSET.test(url)) return false;
  if (url.startsWith('/')) return LOCAL_PATH.test(url) && !url.split('/').includes('..');
  return HTTPS.test(url) || SSH_URL.test(url) || SCP_LIKE.test(url);
}

export const repoUrlSchema = z
  .string()
  .trim()
  .min(1, 'Please enter the repository URL.')
  .max(1000, 'At most 1000 characters.')
  .refine(isSafeRepoUrl, 'Use an https:// or ssh:// URL, user@host:path, or an absolute path on the server.');

export const IdParamsSchema = z.object({ id: z.uuid() });

export const UserRefSchema = z.object({ id: z.string(), username: z.string(), displayName: z.string() });
export type UserRef = z.infer<typeof UserRefSchema>;

/** Any row with an id and a name, as a select lists it (teams, apps, projects). */
export const NamedRowSchema = z.object({ id: z.string(), name: z.string() });
