import type { ChangedMethod, DiffCoverage, MethodCoverage, RevisionChanges, SourceMethod } from '@sextant/coverage';

export type MethodChange = { status: 'added' | 'modified'; author: string | null };

type FileChanges = {
  /** The head revision's methods of the file, as parsed from source. */
  head: readonly SourceMethod[];
  changed: { method: ChangedMethod; change: MethodChange }[];
};

const sameMethod = (a: SourceMethod, b: SourceMethod) =>
  a.class === b.class && a.name === b.name && a.signature === b.signature;

/**
 * Which report methods are changed methods. A report method belongs to the innermost source method
 * holding its first line (JaCoCo's `lambda$run$0` and an anonymous class's methods land where javac
 * took them from); one starting outside every source method (a field initialiser's `<init>`) is
 * matched by class, name and descriptor.
 */
export class MethodChanges {
  private readonly byFile = new Map<string, FileChanges>();

  constructor(diff: DiffCoverage | null, changes: RevisionChanges | null) {
    const methods = diff?.incremental.methods ?? changes?.changedMethods ?? [];
    const authors = diff?.authors ?? changes?.authors ?? [];
    for (const [index, method] of methods.entries()) {
      let file = this.byFile.get(method.file);
      if (!file) {
        file = { head: changes?.headMethods.get(method.file) ?? [], changed: [] };
        this.byFile.set(method.file, file);
      }
      file.changed.push({ method, change: { status: method.status, author: authors[index] ?? null } });
    }
  }

  /** Whether the file has any changed method (most files of a large report have none). */
  touches(path: string): boolean {
    return this.byFile.has(path);
  }

  changeOf(path: string, className: string, method: MethodCoverage): MethodChange | null {
    const file = this.byFile.get(path);
    if (!file) return null;
    const owner = method.startLine === null ? null : innermost(file.head, method.startLine);
    if (owner) {
      const found = file.changed.find(
        (c) =>
          sameMethod(c.method, owner) && c.method.startLine <= owner.startLine && owner.endLine <= c.method.endLine,
      );
      return found?.change ?? null;
    }
    const named = file.changed.find(
      (c) =>
        c.method.name === method.name &&
        (c.method.class === null || c.method.class === className) &&
        (c.method.signature === null || method.signature === null || c.method.signature === method.signature),
    );
    return named?.change ?? null;
  }
}

function innermost(methods: readonly SourceMethod[], line: number): SourceMethod | null {
  let best: SourceMethod | null = null;
  for (const m of methods) {
    if (
      m.startLine <= line &&
      line <= m.endLine &&
      (!best || m.endLine - m.startLine < best.endLine - best.startLine)
    ) {
      best = m;
    }
  }
  return best;
}

/** The author named most often (ties: the first in alphabetical order), or null. */
export function mostFrequentAuthor(authors: Iterable<string | null>): string | null {
  const counts = new Map<string, number>();
  for (const author of authors) if (author !== null) counts.set(author, (counts.get(author) ?? 0) + 1);
  let best: string | null = null;
  let bestCount = 0;
  for (const [author, count] of counts) {
    if (count > bestCount || (count === bestCount && best !== null && author < best)) {
      best = author;
      bestCount = count;
    }
  }
  return best;
}
