/**
 * An absolute path on a word boundary ("/srv/sextant/data/mirrors/<app>/x", "'/tmp/a/b'"): the part
 * before its last name. URLs are left alone: their slashes follow a scheme or a host, not a boundary.
 */
const ABSOLUTE_PATH = /(^|[\s'"`=([])\/(?:[^\s'"`/]+\/)+(?=[^\s'"`/]*)/g;

/**
 * Messages reach users who must not learn the server's file layout (issue 32): a step's error often
 * names a mirror or a work folder. Each absolute path keeps only its last name, after "…/".
 */
export function withoutServerPaths(text: string): string {
  return text.replace(ABSOLUTE_PATH, '$1…/');
}
