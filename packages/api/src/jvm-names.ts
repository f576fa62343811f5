/**
 * JVM names as a Java or Kotlin reader writes them (issue 37): `summary(I)Ljava/lang/String;` reads
 * `summary(int): String`, `<init>(Ldemo/inventory/Stock;)V` reads `Alerts(Stock)`. Display only: the
 * API, search and tooltips keep the JVM name. It lives in the contract package because the names are
 * the contract's (report detail rows, the CLI's method tables) and both the web and the CLI show them.
 */

export type JvmDialect = 'java' | 'kotlin';

/** The words a formatted name may need, in the reader's language. */
export type JvmNameWords = {
  staticInitializer: string;
  lambdaIn: (enclosing: string) => string;
  anonymous: (index: string) => string;
};

export const ENGLISH_JVM_WORDS: JvmNameWords = {
  staticInitializer: 'static initializer',
  lambdaIn: (enclosing) => `lambda in ${enclosing}`,
  anonymous: (index) => `anonymous #${index}`,
};

/** The JVM language a source file is written in, by its extension; null for any other file. */
export function jvmDialectOfPath(path: string | null | undefined): JvmDialect | null {
  if (!path) return null;
  if (/\.java$/i.test(path)) return 'java';
  if (/\.kts?$/i.test(path)) return 'kotlin';
  return null;
}

const PRIMITIVES: Record<string, { java: string; kotlin: string; kotlinArray?: string }> = {
  B: { java: 'byte', kotlin: 'Byte', kotlinArray: 'ByteArray' },
  C: { java: 'char', kotlin: 'Char', kotlinArray: 'CharArray' },
  D: { java: 'double', kotlin: 'Double', kotlinArray: 'DoubleArray' },
  F: { java: 'float', kotlin: 'Float', kotlinArray: 'FloatArray' },
  I: { java: 'int', kotlin: 'Int', kotlinArray: 'IntArray' },
  J: { java: 'long', kotlin: 'Long', kotlinArray: 'LongArray' },
  S: { java: 'short', kotlin: 'Short', kotlinArray: 'ShortArray' },
  Z: { java: 'boolean', kotlin: 'Boolean', kotlinArray: 'BooleanArray' },
  V: { java: 'void', kotlin: 'Unit' },
};

/** What Kotlin calls the Java types its own types compile to. */
const KOTLIN_TYPES: Record<string, string> = { Object: 'Any', 'java/lang/Object': 'Any' };

type JvmType = { kind: 'primitive'; code: string } | { kind: 'object'; name: string } | { kind: 'array'; of: JvmType };

/** One field type of a descriptor from `at`, or null where the text is not one. */
function readType(text: string, at: number): { type: JvmType; next: number } | null {
  const code = text[at];
  if (code === undefined) return null;
  if (code === '[') {
    const inner = readType(text, at + 1);
    return inner && { type: { kind: 'array', of: inner.type }, next: inner.next };
  }
  if (code === 'L') {
    const end = text.indexOf(';', at);
    const name = text.slice(at + 1, end);
    if (end < 0 || !/^[\p{L}\p{N}_$]+(\/[\p{L}\p{N}_$]+)*$/u.test(name)) return null;
    return { type: { kind: 'object', name }, next: end + 1 };
  }
  return code !== 'V' && code in PRIMITIVES ? { type: { kind: 'primitive', code }, next: at + 1 } : null;
}

/** `(I[Ljava/lang/String;)V` as its parameter and return types, or null where it is no descriptor. */
export function parseMethodDescriptor(descriptor: string): { params: JvmType[]; returns: JvmType } | null {
  if (!descriptor.startsWith('(')) return null;
  const params: JvmType[] = [];
  let at = 1;
  while (descriptor[at] !== ')') {
    const read = readType(descriptor, at);
    if (!read) return null;
    params.push(read.type);
    at = read.next;
  }
  at += 1;
  const returns =
    descriptor.slice(at) === 'V'
      ? { type: { kind: 'primitive', code: 'V' } as JvmType, next: at + 1 }
      : readType(descriptor, at);
  return returns && returns.next === descriptor.length ? { params, returns: returns.type } : null;
}

/** `demo/inventory/Stock$Line` → `Stock.Line` (numbered anonymous classes named by `words`). */
function simpleClassName(binaryName: string, words: JvmNameWords): string {
  const simple = binaryName.slice(binaryName.lastIndexOf('/') + 1);
  return simple
    .split('$')
    .filter((part) => part !== '')
    .map((part) => (/^\d+$/.test(part) ? words.anonymous(part) : part))
    .join('.');
}

function typeName(type: JvmType, dialect: JvmDialect, words: JvmNameWords): string {
  if (type.kind === 'primitive') return PRIMITIVES[type.code]?.[dialect] ?? type.code;
  if (type.kind === 'object') {
    if (dialect === 'kotlin' && type.name in KOTLIN_TYPES) return KOTLIN_TYPES[type.name] as string;
    return simpleClassName(type.name, words);
  }
  if (dialect === 'kotlin') {
    const primitive = type.of.kind === 'primitive' ? PRIMITIVES[type.of.code]?.kotlinArray : undefined;
    return primitive ?? `Array<${typeName(type.of, dialect, words)}>`;
  }
  return `${typeName(type.of, dialect, words)}[]`;
}

/** A JVM class name as its source names it: the simple name (`Stock.Line`) and the package (`demo.inventory`). */
export function jvmClassDisplayName(
  binaryName: string,
  words: JvmNameWords = ENGLISH_JVM_WORDS,
): { simple: string; packageName: string } {
  const slash = binaryName.lastIndexOf('/');
  return {
    simple: simpleClassName(binaryName, words),
    packageName: slash < 0 ? '' : binaryName.slice(0, slash).replaceAll('/', '.'),
  };
}

type MethodOptions = {
  /** The method's class as the JVM names it (`demo/inventory/Alerts`): constructors are named after it. */
  className: string | null;
  dialect?: JvmDialect;
  /** The other methods of the class (`name` + descriptor): a lambda's enclosing method is found among them. */
  siblings?: readonly string[];
  words?: JvmNameWords;
};

const splitSignature = (signature: string) => {
  const open = signature.indexOf('(');
  return open <= 0 ? null : { name: signature.slice(0, open), descriptor: signature.slice(open) };
};

/** The method's own name in source: constructors after their class, `<clinit>` in words. */
function sourceMethodName(name: string, options: MethodOptions, words: JvmNameWords): string {
  if (name === '<clinit>') return words.staticInitializer;
  if (name === '<init>') {
    const simple = options.className ? simpleClassName(options.className, words) : '';
    return simple.slice(simple.lastIndexOf('.') + 1) || name;
  }
  return name;
}

/** Java's `lambda$build$0`, Kotlin's `build$lambda$0` / `build$lambda-0`: the enclosing method's name. */
function lambdaEnclosing(name: string): string | null {
  const java = /^lambda\$(.+)\$\d+$/.exec(name);
  if (java) return java[1] as string;
  const kotlin = /^(.+)\$lambda(?:[$-]\d+)?$/.exec(name);
  return kotlin ? (kotlin[1] as string) : null;
}

/** `name(params)` without a return type: how a lambda's enclosing method is named. */
function enclosingName(enclosing: string, options: MethodOptions, dialect: JvmDialect, words: JvmNameWords): string {
  // javac names a lambda in a static initializer `lambda$static$N`, in a constructor `lambda$new$N`.
  const jvmName = enclosing === 'static' ? '<clinit>' : enclosing === 'new' ? '<init>' : enclosing;
  const own = sourceMethodName(jvmName, options, words);
  if (jvmName === '<clinit>') return own;
  const candidates = (options.siblings ?? [])
    .map(splitSignature)
    .filter((s): s is { name: string; descriptor: string } => s?.name === jvmName);
  const parsed =
    candidates.length === 1 ? parseMethodDescriptor((candidates[0] as { descriptor: string }).descriptor) : null;
  return parsed ? `${own}(${parsed.params.map((p) => typeName(p, dialect, words)).join(', ')})` : own;
}

/**
 * A JVM method (`name` + descriptor) as source names it; null when `signature` is not a JVM method
 * (an LCOV function name, a JavaScript method), which the caller shows as it is.
 */
export function jvmMethodDisplayName(signature: string, options: MethodOptions): string | null {
  const words = options.words ?? ENGLISH_JVM_WORDS;
  const dialect = options.dialect ?? 'java';
  const split = splitSignature(signature);
  const parsed = split && parseMethodDescriptor(split.descriptor);
  if (!split || !parsed) return null;
  const enclosing = lambdaEnclosing(split.name);
  if (enclosing !== null) return words.lambdaIn(enclosingName(enclosing, options, dialect, words));
  const name = sourceMethodName(split.name, options, words);
  if (split.name === '<clinit>') return name;
  const params = `(${parsed.params.map((p) => typeName(p, dialect, words)).join(', ')})`;
  const voidReturn = parsed.returns.kind === 'primitive' && parsed.returns.code === 'V';
  return split.name === '<init>' || voidReturn
    ? `${name}${params}`
    : `${name}${params}: ${typeName(parsed.returns, dialect, words)}`;
}
