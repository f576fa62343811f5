import type { ChangedFile } from '../diff/unified.ts';
import { changedMethods, type FileMethods, methodKey } from '../figures/incremental.ts';
import { languageOfPath } from '../methods/language.ts';
import { ParseBudgetExceeded } from '../methods/parse-budget.ts';
import { extractMethodsOfRevisions } from '../methods/two-revisions.ts';
import type { HashFilter, SourceMethod } from '../methods/types.ts';
import { firstAtLeast, itself } from '../model/sorted.ts';
import { loadCompiledTokenizer } from './compiled.ts';

/** One changed file's methods to find: its head text and, unless it was added, its base text. */
export interface ExtractionJob {
  file: ChangedFile;
  head: string;
  base: string | null;
}

/** Hashes only the methods a change can reach: the others' hashes would never be read. */
export function touchedBy(file: ChangedFile): HashFilter {
  const lines = [...file.lines, ...file.deletions.flatMap((d) => [d.after, d.after + 1])].sort((a, b) => a - b);
  return (startLine, endLine) => {
    const first = lines[firstAtLeast(lines, startLine, itself)];
    return first !== undefined && first <= endLine;
  };
}

/**
 * Methods of a changed file at head and, when a head method changed, at base: of those only the
 * ones a changed head method shares its class, name and signature with (the base methods only
 * tell added from modified). The same in a worker thread as in-process.
 */
export async function extractJob({ file, head, base }: ExtractionJob): Promise<FileMethods> {
  loadCompiledTokenizer();
  const baseRevision = base === null ? null : { source: base, path: file.oldPath ?? file.path, hunks: file.hunks };
  let changed: readonly SourceMethod[] = [];
  let both: FileMethods;
  try {
    both = await extractMethodsOfRevisions(file.path, head, baseRevision, touchedBy(file), (found) => {
      changed = changedMethods([file], new Map([[file.path, { head: found, base: [] }]]));
      return changed.length > 0;
    });
  } catch (error) {
    if (error instanceof ParseBudgetExceeded) return { head: [], base: [], unparsed: true };
    throw error;
  }
  if (both.base.length === 0) return both;
  // Of the base, only the methods a changed one is looked up by: a fraction to send and keep.
  const asked = new Set(changed.map(methodKey));
  return { head: both.head, base: both.base.filter((m) => asked.has(methodKey(m))) };
}

/**
 * What besides the two texts decides a file's methods: the language, the path where it names a
 * class (Kotlin's `FileKt`), and the changes (which methods get body hashes, whether the base is read).
 */
export function extractionKey(file: ChangedFile): string {
  const language = languageOfPath(file.path);
  const named = language === 'kotlin' ? `${file.path}\u0000${file.oldPath ?? ''}` : '';
  return `${language}\u0000${named}\u0000${JSON.stringify([file.status, file.lines, file.hunks, file.deletions])}`;
}
