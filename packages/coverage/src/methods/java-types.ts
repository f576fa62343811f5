import type { Node } from 'web-tree-sitter';

// Public types of java.lang, visible without an import. A same-package class shadowing one of
// these cannot be seen from a single file, so the java.lang reading wins.
const JAVA_LANG = new Set(
  (
    'Object String Integer Long Short Byte Character Boolean Float Double Number Void Math StrictMath ' +
    'StringBuilder StringBuffer CharSequence Comparable Iterable Runnable Thread ThreadLocal Throwable ' +
    'Exception RuntimeException Error Class ClassLoader Enum Record System Runtime Process ProcessBuilder ' +
    'AutoCloseable Cloneable Appendable Readable Package Module StackTraceElement Override Deprecated ' +
    'FunctionalInterface SuppressWarnings SafeVarargs IllegalArgumentException IllegalStateException ' +
    'NullPointerException UnsupportedOperationException IndexOutOfBoundsException ' +
    'ArrayIndexOutOfBoundsException StringIndexOutOfBoundsException ClassCastException ArithmeticException ' +
    'NumberFormatException InterruptedException CloneNotSupportedException ReflectiveOperationException ' +
    'ClassNotFoundException NoSuchFieldException NoSuchMethodException InstantiationException ' +
    'IllegalAccessException SecurityException ArrayStoreException NegativeArraySizeException ' +
    'IllegalMonitorStateException AssertionError OutOfMemoryError StackOverflowError LinkageError ' +
    'ExceptionInInitializerError'
  ).split(' '),
);

const PRIMITIVES: Record<string, string> = {
  int: 'I',
  long: 'J',
  short: 'S',
  byte: 'B',
  char: 'C',
  float: 'F',
  double: 'D',
  boolean: 'Z',
  void: 'V',
};

/** What a Java file lets a simple type name mean. */
export interface JavaTypeScope {
  /** `com/example`, or '' for the default package. */
  packagePath: string;
  /** Single-type imports: simple name -> internal name. */
  imports: Map<string, string>;
  /** An on-demand import (`import a.b.*;`) makes an unknown simple name unresolvable. */
  hasWildcardImport: boolean;
  /** Every class declared in the file, by internal name. */
  declared: Set<string>;
}

/** Erasure of each type variable in scope: `T` -> `Ljava/lang/Object;` or its first bound. */
export type TypeVariables = ReadonlyMap<string, string | null>;

/** `java.util.Map.Entry` -> `java/util/Map$Entry`: segments after the first capitalised one are nested classes. */
export function qualifiedToInternal(dotted: string): string {
  const parts = dotted.split('.');
  const firstClass = parts.findIndex((p) => /^[A-Z]/.test(p));
  if (firstClass <= 0) return parts.join('/');
  return `${parts.slice(0, firstClass).join('/')}/${parts.slice(firstClass).join('$')}`;
}

export function readImports(program: Node, packagePath: string): JavaTypeScope {
  const scope: JavaTypeScope = { packagePath, imports: new Map(), hasWildcardImport: false, declared: new Set() };
  for (const node of program.namedChildren) {
    if (node?.type !== 'import_declaration') continue;
    const isStatic = node.children.some((c) => c?.type === 'static');
    const name = node.namedChildren.find((c) => c?.type === 'scoped_identifier' || c?.type === 'identifier');
    if (!name) continue;
    if (node.namedChildren.some((c) => c?.type === 'asterisk')) {
      // A static on-demand import brings members, not types we could confuse with a parameter type.
      if (!isStatic) scope.hasWildcardImport = true;
      continue;
    }
    if (isStatic) continue;
    const dotted = name.text.replace(/\s+/g, '');
    scope.imports.set(dotted.slice(dotted.lastIndexOf('.') + 1), qualifiedToInternal(dotted));
  }
  return scope;
}

function resolveSimpleName(
  name: string,
  scope: JavaTypeScope,
  enclosing: readonly string[],
  typeVariables: TypeVariables,
): string | null {
  if (typeVariables.has(name)) return typeVariables.get(name) ?? null;
  for (let i = enclosing.length - 1; i >= 0; i--) {
    const outer = enclosing[i] as string;
    if (outer.slice(Math.max(outer.lastIndexOf('/'), outer.lastIndexOf('$')) + 1) === name) return `L${outer};`;
    if (scope.declared.has(`${outer}$${name}`)) return `L${outer}$${name};`;
  }
  const topLevel = scope.packagePath ? `${scope.packagePath}/${name}` : name;
  if (scope.declared.has(topLevel)) return `L${topLevel};`;
  const imported = scope.imports.get(name);
  if (imported) return `L${imported};`;
  if (JAVA_LANG.has(name)) return `Ljava/lang/${name};`;
  // With an on-demand import the name may come from that package or this one: not decidable here.
  if (scope.hasWildcardImport) return null;
  return `L${topLevel};`;
}

function resolveScopedName(
  dotted: string,
  scope: JavaTypeScope,
  enclosing: readonly string[],
  typeVariables: TypeVariables,
): string | null {
  const [head, ...rest] = dotted.split('.');
  if (head && /^[A-Z]/.test(head)) {
    const outer = resolveSimpleName(head, scope, enclosing, typeVariables);
    return outer ? `${outer.slice(0, -1)}$${rest.join('$')};` : null;
  }
  return `L${qualifiedToInternal(dotted)};`;
}

/** The JVM descriptor of a type node (erased), or null when the file alone cannot tell. */
export function typeDescriptor(
  node: Node,
  scope: JavaTypeScope,
  enclosing: readonly string[],
  typeVariables: TypeVariables,
): string | null {
  switch (node.type) {
    case 'integral_type':
    case 'floating_point_type':
    case 'boolean_type':
    case 'void_type':
      return PRIMITIVES[node.text] ?? null;
    case 'type_identifier':
      return resolveSimpleName(node.text, scope, enclosing, typeVariables);
    case 'scoped_type_identifier': {
      const dotted = node.namedChildren
        .filter((c) => c?.type === 'type_identifier' || c?.type === 'scoped_type_identifier')
        .map((c) => c?.text.replace(/\s+/g, ''))
        .join('.');
      return resolveScopedName(dotted, scope, enclosing, typeVariables);
    }
    case 'generic_type':
    case 'annotated_type': {
      const base = node.namedChildren.find((c) => c?.type !== 'type_arguments' && !c?.type.endsWith('annotation'));
      return base ? typeDescriptor(base, scope, enclosing, typeVariables) : null;
    }
    case 'array_type': {
      const element = node.childForFieldName('element');
      const dims = node.childForFieldName('dimensions');
      const inner = element ? typeDescriptor(element, scope, enclosing, typeVariables) : null;
      return inner && dims ? '['.repeat(countDimensions(dims)) + inner : null;
    }
    default:
      return null;
  }
}

export function countDimensions(dimensions: Node): number {
  return dimensions.children.filter((c) => c?.type === '[').length;
}

/** Erasures of the type parameters a declaration introduces (first bound, else Object). */
export function declareTypeVariables(
  typeParameters: Node | null,
  scope: JavaTypeScope,
  enclosing: readonly string[],
  outer: TypeVariables,
): TypeVariables {
  if (!typeParameters) return outer;
  const variables = new Map(outer);
  const parameters = typeParameters.namedChildren.filter((c) => c?.type === 'type_parameter') as Node[];
  // Declare all names first: a bound may name a later parameter (`<A extends B, B>`).
  for (const parameter of parameters) {
    const name = parameter.namedChildren.find((c) => c?.type === 'type_identifier' || c?.type === 'identifier');
    if (name) variables.set(name.text, 'Ljava/lang/Object;');
  }
  for (const parameter of parameters) {
    const name = parameter.namedChildren.find((c) => c?.type === 'type_identifier' || c?.type === 'identifier');
    const bound = parameter.namedChildren.find((c) => c?.type === 'type_bound')?.namedChildren[0];
    if (name && bound) variables.set(name.text, typeDescriptor(bound, scope, enclosing, variables));
  }
  return variables;
}
