import type { DiffCoverage } from '@sextant/coverage';
import { blameLines } from '@sextant/coverage/node';
import type { RequirementChange } from '../generate/requirement-summaries.ts';
import { commitsBetween } from './mirror.ts';

// Requirement keys as commit messages name them: PROJ-12, REQ-7.
const REQUIREMENT_KEY = /\b[A-Z][A-Z0-9_]+-\d+\b/g;

type GitOptions = { timeoutMs: number; signal?: AbortSignal };

const keysOf = (message: string) => [...new Set(message.match(REQUIREMENT_KEY) ?? [])];

/**
 * The requirement keys the commit messages of `base..head` name (newest commit first), and per key
 * its commits and the changed methods of the diff whose changed lines one of them last wrote
 * (`git blame` of those lines at head, from base). Only files a keyed commit touched are blamed.
 */
export async function requirementChanges(
  mirror: string,
  base: string,
  head: string,
  diff: DiffCoverage | null,
  git: GitOptions,
): Promise<{ keys: string[]; changes: RequirementChange[] }> {
  if (base === head) return { keys: [], changes: [] };
  const commits = await commitsBetween(mirror, base, head, git);
  const byKey = new Map<string, RequirementChange>();
  const keysOfCommit = new Map<string, string[]>();
  const touched = new Set<string>();
  for (const commit of commits) {
    const keys = keysOf(commit.message);
    if (keys.length === 0) continue;
    keysOfCommit.set(commit.sha, keys);
    for (const file of commit.files) touched.add(file);
    const subject = commit.message.split('\n')[0]?.trim() ?? '';
    for (const key of keys) {
      const change = byKey.get(key) ?? { key, commits: [], methods: [] };
      change.commits.push({ sha: commit.sha, subject });
      byKey.set(key, change);
    }
  }
  const methods = diff?.incremental.methods ?? [];
  const linesByFile = new Map<string, number[]>();
  for (const m of methods) {
    if (touched.has(m.file) && m.changedLines.length > 0) {
      linesByFile.set(m.file, [...(linesByFile.get(m.file) ?? []), ...m.changedLines]);
    }
  }
  const commitOfLine = new Map<string, Map<number, string>>();
  for (const [path, lines] of linesByFile) {
    const blamed = await blameLines(mirror, head, path, lines, base).catch(() => blameLines(mirror, head, path, lines));
    commitOfLine.set(path, new Map(blamed.map((l) => [l.line, l.commit])));
  }
  methods.forEach((m, index) => {
    const lines = commitOfLine.get(m.file);
    if (!lines) return;
    const keys = new Set(m.changedLines.flatMap((line) => keysOfCommit.get(lines.get(line) ?? '') ?? []));
    for (const key of keys) byKey.get(key)?.methods.push(index);
  });
  return { keys: [...byKey.keys()], changes: [...byKey.values()] };
}
