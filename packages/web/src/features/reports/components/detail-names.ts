import {
  type JvmNameWords,
  jvmClassDisplayName,
  jvmDialectOfPath,
  jvmMethodDisplayName,
  type ReportDetail,
} from '@sextant/api';

export type DetailName = { main: string; rest: string };

/** Dotted names (`com.acme.Foo`) and file paths split at the last '.' or '/'. */
function splitPlainName(name: string): DetailName {
  const slash = name.lastIndexOf('/');
  const dots = name.split('.').length - 1;
  const cut = slash >= 0 ? slash : dots >= 2 ? name.lastIndexOf('.') : -1;
  return cut < 0 ? { main: name, rest: '' } : { main: name.slice(cut + 1), rest: name.slice(0, cut) };
}

/** A JVM class name (`pkg/Class$Inner`): a row that is not its own file (LCOV's rows are files). */
const isJvmClass = (row: ReportDetail) =>
  row.name !== row.filePath && /^[\p{L}\p{N}_$]+(\/[\p{L}\p{N}_$]+)*$/u.test(row.name);

/**
 * A detail row's name as its source names it (issue 37): Java and Kotlin classes and methods by
 * their source names (`Stock.Line`, `summary(int): String`); other languages as the report gives them.
 * `siblings` are the other methods of a method's class (a lambda is named after its enclosing method).
 */
export function detailName(
  row: ReportDetail,
  words: JvmNameWords,
  parent?: ReportDetail,
  siblings?: readonly string[],
): DetailName {
  const dialect = jvmDialectOfPath(row.filePath);
  if (row.kind === 'method') {
    const className = parent && isJvmClass(parent) ? parent.name : null;
    const source = dialect ? jvmMethodDisplayName(row.name, { className, dialect, siblings, words }) : null;
    return { main: source ?? row.name, rest: '' };
  }
  if (dialect && isJvmClass(row)) {
    const { simple, packageName } = jvmClassDisplayName(row.name, words);
    return { main: simple, rest: packageName };
  }
  return splitPlainName(row.name);
}
