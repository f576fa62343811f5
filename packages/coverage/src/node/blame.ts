import { GitError, runGit, validateRef } from './git.ts';

/** Who last changed one line of a file at a revision. */
export interface BlamedLine {
  line: number;
  commit: string;
  author: string;
  email: string;
  /** Seconds since the epoch. */
  committerTime: number;
}

/** `[3, 4, 5, 9]` -> `[[3, 5], [9, 9]]`, for `git blame -L`. */
export function lineRanges(lines: Iterable<number>): [number, number][] {
  const sorted = [...new Set(lines)].filter((l) => Number.isInteger(l) && l > 0).sort((a, b) => a - b);
  const ranges: [number, number][] = [];
  for (const line of sorted) {
    const last = ranges[ranges.length - 1];
    if (last && last[1] === line - 1) last[1] = line;
    else ranges.push([line, line]);
  }
  return ranges;
}

const HEADER = /^([0-9a-f]{40,64}) \d+ (\d+)(?: \d+)?$/;

/** Parses `git blame --line-porcelain`: every line carries its commit's full headers. */
export function parseLinePorcelain(text: string): BlamedLine[] {
  const lines: BlamedLine[] = [];
  let current: BlamedLine | null = null;
  for (const row of text.split('\n')) {
    if (row.startsWith('\t')) {
      if (current) lines.push(current);
      current = null;
      continue;
    }
    const header = HEADER.exec(row);
    if (header) {
      current = { line: Number(header[2]), commit: header[1] as string, author: '', email: '', committerTime: 0 };
    } else if (current) {
      const space = row.indexOf(' ');
      const key = space < 0 ? row : row.slice(0, space);
      const value = space < 0 ? '' : row.slice(space + 1);
      if (key === 'author') current.author = value;
      else if (key === 'author-mail') current.email = value.replace(/^<|>$/g, '');
      else if (key === 'committer-time') current.committerTime = Number(value);
    }
  }
  return lines;
}

/**
 * Blames the given lines of `path` as of `revision` (argument array, validated refs, path after
 * `--`). With `since`, history before that commit is not walked: lines older than it are given to
 * it, which for lines changed in `since..revision` is the same answer, found much faster.
 */
export async function blameLines(
  repo: string,
  revision: string,
  path: string,
  lines: Iterable<number>,
  since: string | null = null,
): Promise<BlamedLine[]> {
  validateRef(revision);
  if (since !== null) validateRef(since);
  const ranges = lineRanges(lines);
  if (ranges.length === 0) return [];
  const args = ['blame', '--line-porcelain'];
  for (const [from, to] of ranges) args.push('-L', `${from},${to}`);
  args.push(since === null ? revision : `${since}..${revision}`, '--', path);
  try {
    return parseLinePorcelain(await runGit(repo, args));
  } catch (error) {
    const reason = (error as Error).message.replace(/^git blame failed in .*?: /, '');
    throw new GitError(`git blame failed for ${path} at ${revision}: ${reason}`);
  }
}

/**
 * The author of a method's change: whoever last wrote most of its changed lines; a tie goes to the
 * author whose commit among those lines is the latest. `name <email>`, or null with no lines.
 */
export function methodAuthor(lines: readonly BlamedLine[]): string | null {
  const byAuthor = new Map<string, { count: number; latest: number }>();
  for (const line of lines) {
    const key = `${line.author} <${line.email}>`;
    const seen = byAuthor.get(key) ?? { count: 0, latest: 0 };
    seen.count++;
    seen.latest = Math.max(seen.latest, line.committerTime);
    byAuthor.set(key, seen);
  }
  let best: string | null = null;
  let bestScore = { count: -1, latest: -1 };
  for (const [author, score] of byAuthor) {
    const wins =
      score.count > bestScore.count ||
      (score.count === bestScore.count && score.latest > bestScore.latest) ||
      (score.count === bestScore.count && score.latest === bestScore.latest && best !== null && author < best);
    if (wins) {
      best = author;
      bestScore = score;
    }
  }
  return best;
}
