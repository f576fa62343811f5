/** Languages whose method ranges can be read from source. */
export const SOURCE_LANGUAGES = [
  'java',
  'kotlin',
  'javascript',
  'typescript',
  'tsx',
  'python',
  'go',
  'c',
  'cpp',
] as const;
export type SourceLanguage = (typeof SOURCE_LANGUAGES)[number];

/** A method as found in source, named the way the coverage tool for its language names it. */
export interface SourceMethod {
  /**
   * Enclosing class: JVM internal name for Java and Kotlin (`pkg/Outer$Inner`, `pkg/FileKt` for
   * Kotlin top-level functions), dotted for Python (`Outer.Inner`), the receiver type for Go,
   * the class for C++ and JS/TS; null for free functions.
   */
  class: string | null;
  /** JaCoCo's names on the JVM (`<init>`, `<clinit>`); the declared name elsewhere. */
  name: string;
  /** JVM descriptor such as `(ILjava/lang/String;)V` (Java only), null when not derivable. */
  signature: string | null;
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
  /**
   * sha1 (hex) of the method's text with comments removed and whitespace collapsed; '' when the
   * caller's `HashFilter` skipped it (hashing every method of a large file is costly).
   */
  bodyHash: string;
}

/** Which methods, by their line range, get a body hash (the synthetic JVM ones always do: theirs cost nothing). */
export type HashFilter = (startLine: number, endLine: number) => boolean;

export const HASH_ALL: HashFilter = () => true;
