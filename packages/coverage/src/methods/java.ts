import type { Node, Tree } from 'web-tree-sitter';
import { COMMENT_TYPES, normalisedRange } from './body-hash.ts';
import {
  countDimensions,
  declareTypeVariables,
  type JavaTypeScope,
  readImports,
  type TypeVariables,
  typeDescriptor,
} from './java-types.ts';
import { sha1Hex } from './sha1.ts';
import { HASH_ALL, type HashFilter, type SourceMethod } from './types.ts';

const TYPE_DECLARATIONS = new Set([
  'class_declaration',
  'interface_declaration',
  'enum_declaration',
  'record_declaration',
  'annotation_type_declaration',
]);
const MEMBER_CONTAINERS = new Set(['class_body', 'interface_body', 'enum_body_declarations', 'annotation_type_body']);

interface JavaClass {
  node: Node;
  /** Where the members are: class_body, interface_body, enum_body. */
  body: Node | null;
  internalName: string;
  kind: string;
  /** The JVM passes the enclosing instance as the constructor's first argument. */
  outerInstance: string | null;
  /** Anonymous and local classes capture variables into constructor arguments we cannot see. */
  capturesLocals: boolean;
  enclosing: string[];
  typeVariables: TypeVariables;
}

function hasModifier(node: Node, keyword: string): boolean {
  const modifiers = node.namedChildren.find((c) => c?.type === 'modifiers');
  return !!modifiers?.children.some((c) => c?.type === keyword);
}

/** javac names anonymous `Outer$1` and local `Outer$1Local` classes with the first unused number. */
function nextSyntheticName(outer: string, suffix: string, taken: Set<string>): string {
  for (let i = 1; ; i++) {
    const name = `${outer}$${i}${suffix}`;
    if (!taken.has(name)) return name;
  }
}

/** Nodes that may declare a class: type declarations, `new T() { ... }`, enum constants with a body. */
const CLASS_SITES = [...TYPE_DECLARATIONS, 'object_creation_expression', 'enum_constant'];

/** The class sites and the comments of a file, each in source order, from one walk inside tree-sitter. */
function classSitesAndComments(root: Node): { sites: Node[]; comments: Node[] } {
  const sites: Node[] = [];
  const comments: Node[] = [];
  for (const node of root.descendantsOfType([...CLASS_SITES, ...COMMENT_TYPES])) {
    if (node) (COMMENT_TYPES.includes(node.type) ? comments : sites).push(node);
  }
  // Outer before inner at the same start: the order javac numbers anonymous classes in.
  sites.sort((a, b) => a.startIndex - b.startIndex || b.endIndex - a.endIndex);
  comments.sort((a, b) => a.startIndex - b.startIndex);
  return { sites, comments };
}

function collectClasses(sites: readonly Node[], scope: JavaTypeScope): JavaClass[] {
  const classes: JavaClass[] = [];
  // The declared classes around the current site, innermost last (ranges nest as the tree does).
  const open: JavaClass[] = [];
  for (const node of sites) {
    while (open.length > 0 && node.endIndex > (open[open.length - 1] as JavaClass).node.endIndex) open.pop();
    const owner = open[open.length - 1] ?? null;
    let declared: JavaClass | null = null;
    if (TYPE_DECLARATIONS.has(node.type)) {
      const name = node.childForFieldName('name')?.text ?? '';
      const member = owner !== null && MEMBER_CONTAINERS.has(node.parent?.type ?? '');
      let internalName: string;
      if (!owner) internalName = scope.packagePath ? `${scope.packagePath}/${name}` : name;
      else if (member) internalName = `${owner.internalName}$${name}`;
      else internalName = nextSyntheticName(owner.internalName, name, scope.declared);
      const ownerIsInterface = owner?.kind === 'interface_declaration' || owner?.kind === 'annotation_type_declaration';
      const innerInstance =
        member && node.type === 'class_declaration' && !ownerIsInterface && !hasModifier(node, 'static');
      declared = {
        node,
        body: node.childForFieldName('body'),
        internalName,
        kind: node.type,
        outerInstance: innerInstance && owner ? owner.internalName : null,
        capturesLocals: owner !== null && !member,
        enclosing: [...(owner?.enclosing ?? []), internalName],
        typeVariables: new Map(),
      };
    } else if (owner) {
      const body = node.namedChildren.find((c) => c?.type === 'class_body') ?? null;
      if (body) {
        const internalName = nextSyntheticName(owner.internalName, '', scope.declared);
        declared = {
          node,
          body,
          internalName,
          kind: 'anonymous',
          outerInstance: null,
          capturesLocals: true,
          enclosing: [...owner.enclosing, internalName],
          typeVariables: owner.typeVariables,
        };
      }
    }
    if (declared) {
      scope.declared.add(declared.internalName);
      classes.push(declared);
      open.push(declared);
    }
  }
  // Type variables resolve only once every class name is known.
  for (const cls of classes) {
    const parent = classes.find((c) => c.internalName === cls.enclosing[cls.enclosing.length - 2]);
    const inherited = parent?.typeVariables ?? new Map<string, string | null>();
    cls.typeVariables =
      cls.kind === 'anonymous'
        ? inherited
        : declareTypeVariables(cls.node.childForFieldName('type_parameters'), scope, cls.enclosing, inherited);
  }
  return classes;
}

function parameterDescriptors(
  parameters: Node | null,
  scope: JavaTypeScope,
  cls: JavaClass,
  typeVariables: TypeVariables,
): string | null {
  if (!parameters) return '';
  let descriptor = '';
  for (const parameter of parameters.namedChildren) {
    if (!parameter || parameter.type === 'receiver_parameter') continue;
    if (parameter.type !== 'formal_parameter' && parameter.type !== 'spread_parameter') continue;
    const typeNode =
      parameter.childForFieldName('type') ??
      parameter.namedChildren.find((c) => c && c.type !== 'modifiers' && c.type !== 'variable_declarator');
    const type = typeNode ? typeDescriptor(typeNode, scope, cls.enclosing, typeVariables) : null;
    if (!type) return null;
    // `int a[]` puts dimensions after the name; `String... s` is an array.
    const trailing = parameter.namedChildren.filter((c) => c?.type === 'dimensions') as Node[];
    const extra = trailing.reduce((n, d) => n + countDimensions(d), 0);
    descriptor += '['.repeat(extra + (parameter.type === 'spread_parameter' ? 1 : 0)) + type;
  }
  return descriptor;
}

function constructorPrefix(cls: JavaClass): string | null {
  if (cls.capturesLocals) return null;
  if (cls.kind === 'enum_declaration') return 'Ljava/lang/String;I';
  return cls.outerInstance ? `L${cls.outerInstance};` : '';
}

function joinDescriptor(prefix: string | null, parameters: string | null, returns: string | null): string | null {
  return prefix === null || parameters === null || returns === null ? null : `(${prefix}${parameters})${returns}`;
}

/** A file's text and its comments (ascending), which body hashes leave out. */
interface JavaSource {
  text: string;
  comments: readonly Node[];
  /** Which methods get a body hash (the others' would never be read). */
  hashed: HashFilter;
}

function toMethod(
  source: JavaSource,
  cls: JavaClass,
  node: Node,
  name: string,
  signature: string | null,
): SourceMethod {
  const startLine = node.startPosition.row + 1;
  const endLine = node.endPosition.row + 1;
  const hashed = source.hashed(startLine, endLine);
  return {
    class: cls.internalName,
    name,
    signature,
    startLine,
    endLine,
    bodyHash: hashed ? sha1Hex(normalisedRange(source.text, node.startIndex, node.endIndex, source.comments)) : '',
  };
}

function memberNodes(cls: JavaClass): Node[] {
  if (!cls.body) return [];
  const members = cls.body.namedChildren.filter((c): c is Node => c !== null);
  const enumTail = members.find((c) => c.type === 'enum_body_declarations');
  return enumTail ? [...members, ...(enumTail.namedChildren.filter((c) => c !== null) as Node[])] : members;
}

const CONSTANT_VALUES = new Set([
  'decimal_integer_literal',
  'hex_integer_literal',
  'octal_integer_literal',
  'binary_integer_literal',
  'decimal_floating_point_literal',
  'hex_floating_point_literal',
  'string_literal',
  'character_literal',
  'true',
  'false',
  'null_literal',
]);

/**
 * A static field whose initialiser runs in <clinit>. `static final` fields set to a literal are
 * compile-time constants with no code (null is not a constant, but javac emits no code for it either).
 */
function isStaticInitialisedField(member: Node, implicitlyStaticFinal: boolean): boolean {
  // tree-sitter-java calls an interface's fields constant declarations.
  if (member.type !== 'field_declaration' && member.type !== 'constant_declaration') return false;
  if (!implicitlyStaticFinal && !hasModifier(member, 'static')) return false;
  const values = fieldValues(member);
  if (values.length === 0) return false;
  const isFinal = implicitlyStaticFinal || hasModifier(member, 'final');
  return !(isFinal && values.every((v) => CONSTANT_VALUES.has(v.type)));
}

function isInstanceInitialisedField(member: Node): boolean {
  return member.type === 'field_declaration' && !hasModifier(member, 'static') && fieldValues(member).length > 0;
}

function fieldValues(field: Node): Node[] {
  return field.namedChildren
    .filter((c) => c?.type === 'variable_declarator')
    .map((d) => d?.childForFieldName('value'))
    .filter((v): v is Node => !!v);
}

/** A constructor whose body starts with `this(...)`: javac leaves the instance initialisers to the one it calls. */
function delegatesToThis(declaration: Node): boolean {
  const first = declaration
    .childForFieldName('body')
    ?.namedChildren.find((c) => c?.type !== 'line_comment' && c?.type !== 'block_comment');
  return first?.type === 'explicit_constructor_invocation' && first.childForFieldName('constructor')?.text === 'this';
}

/** Interface (and annotation) fields are implicitly static final; their methods need a body to count. */
function isInterface(cls: JavaClass): boolean {
  return cls.kind === 'interface_declaration' || cls.kind === 'annotation_type_declaration';
}

/** The implicit constructor javac adds; JaCoCo reports it on the class declaration line. */
function implicitConstructor(cls: JavaClass, scope: JavaTypeScope): SourceMethod {
  const line = (cls.node.childForFieldName('name') ?? cls.node).startPosition.row + 1;
  let parameters: string | null = '';
  if (cls.kind === 'record_declaration') {
    parameters = parameterDescriptors(cls.node.childForFieldName('parameters'), scope, cls, cls.typeVariables);
  }
  const signature = joinDescriptor(constructorPrefix(cls), parameters, 'V');
  const text = `${cls.internalName}.<init>${signature ?? ''}`;
  return {
    class: cls.internalName,
    name: '<init>',
    signature,
    startLine: line,
    endLine: line,
    bodyHash: sha1Hex(text),
  };
}

/**
 * An enum's <clinit> constructs its constants and fills $VALUES (javac puts that on the declaration
 * line). One entry per constant, without the constant's own class body, so a change inside
 * `ROUND { ... }` does not mark <clinit> changed.
 */
function enumInitialiser(source: JavaSource, cls: JavaClass): SourceMethod[] {
  const constants = (cls.body?.namedChildren.filter((c) => c?.type === 'enum_constant') ?? []) as Node[];
  const name = cls.node.childForFieldName('name') ?? cls.node;
  const ranges = [{ start: name.startPosition.row + 1, end: name.startPosition.row + 1, text: name.text }];
  for (const constant of constants) {
    const body = constant.childForFieldName('body');
    const end = body ? body.startPosition.row + 1 : constant.endPosition.row + 1;
    const text = source.text.slice(constant.startIndex, body ? body.startIndex : constant.endIndex);
    ranges.push({ start: constant.startPosition.row + 1, end, text: text.replace(/\s+/g, ' ') });
  }
  const hash = sha1Hex(ranges.map((r) => r.text).join(','));
  return ranges.map((r) => ({
    class: cls.internalName,
    name: '<clinit>',
    signature: '()V',
    startLine: r.start,
    endLine: r.end,
    bodyHash: hash,
  }));
}

/**
 * javac generates an accessor per record component not declared by hand, on the record's line;
 * JaCoCo reports them (it filters only the generated toString, hashCode and equals).
 */
function recordAccessors(cls: JavaClass, scope: JavaTypeScope, declared: SourceMethod[]): SourceMethod[] {
  const accessors: SourceMethod[] = [];
  const components = cls.node.childForFieldName('parameters')?.namedChildren ?? [];
  for (const component of components) {
    if (component?.type !== 'formal_parameter') continue;
    const name = component.childForFieldName('name')?.text ?? '';
    if (name === '') continue;
    if (declared.some((m) => m.name === name && m.signature?.startsWith('()'))) continue;
    const typeNode = component.childForFieldName('type');
    const type = typeNode ? typeDescriptor(typeNode, scope, cls.enclosing, cls.typeVariables) : null;
    const line = component.startPosition.row + 1;
    accessors.push({
      class: cls.internalName,
      name,
      signature: type ? `()${type}` : null,
      startLine: line,
      endLine: component.endPosition.row + 1,
      bodyHash: sha1Hex(`${cls.internalName}.${name}:${component.text.replace(/\s+/g, ' ')}`),
    });
  }
  return accessors;
}

function methodsOfClass(source: JavaSource, cls: JavaClass, scope: JavaTypeScope): SourceMethod[] {
  const methods: SourceMethod[] = [];
  let hasConstructor = false;
  /** Descriptors of the explicit constructors that run the instance initialisers (null: unknown). */
  const initialising = new Set<string | null>();
  for (const member of memberNodes(cls)) {
    if (member.type === 'method_declaration') {
      // Abstract and interface methods have no code, so no coverage.
      if (!member.childForFieldName('body')) continue;
      const typeVariables = declareTypeVariables(
        member.childForFieldName('type_parameters'),
        scope,
        cls.enclosing,
        cls.typeVariables,
      );
      const returnNode = member.childForFieldName('type');
      const dims = member.namedChildren.filter((c) => c?.type === 'dimensions') as Node[];
      const returnType = returnNode ? typeDescriptor(returnNode, scope, cls.enclosing, typeVariables) : null;
      const returns = returnType ? '['.repeat(dims.reduce((n, d) => n + countDimensions(d), 0)) + returnType : null;
      const parameters = parameterDescriptors(member.childForFieldName('parameters'), scope, cls, typeVariables);
      const name = member.childForFieldName('name')?.text ?? '';
      // Broken source that tree-sitter recovered as a method without a name: javac would make nothing of it.
      if (name === '') continue;
      methods.push(toMethod(source, cls, member, name, joinDescriptor('', parameters, returns)));
    } else if (member.type === 'constructor_declaration') {
      hasConstructor = true;
      const typeVariables = declareTypeVariables(
        member.childForFieldName('type_parameters'),
        scope,
        cls.enclosing,
        cls.typeVariables,
      );
      const parameters = parameterDescriptors(member.childForFieldName('parameters'), scope, cls, typeVariables);
      const signature = joinDescriptor(constructorPrefix(cls), parameters, 'V');
      methods.push(toMethod(source, cls, member, '<init>', signature));
      if (!delegatesToThis(member)) initialising.add(signature);
    } else if (member.type === 'compact_constructor_declaration') {
      hasConstructor = true;
      const parameters = parameterDescriptors(cls.node.childForFieldName('parameters'), scope, cls, cls.typeVariables);
      methods.push(toMethod(source, cls, member, '<init>', joinDescriptor('', parameters, 'V')));
    } else if (member.type === 'static_initializer' || isStaticInitialisedField(member, isInterface(cls))) {
      methods.push(toMethod(source, cls, member, '<clinit>', '()V'));
    }
  }
  if (cls.kind === 'enum_declaration') methods.push(...enumInitialiser(source, cls));
  if (cls.kind === 'record_declaration') methods.push(...recordAccessors(cls, scope, methods));
  const implicit = !hasConstructor && !isInterface(cls) ? implicitConstructor(cls, scope) : null;
  if (implicit) methods.push(implicit);
  // Instance field initialisers and initialiser blocks are compiled into the constructors that do
  // not call this(...): each is listed as a piece of every one of them (as JaCoCo counts its lines
  // in each), so a changed initialiser marks those constructors changed, not a nameless `<init>`.
  const runners = implicit ? [implicit.signature] : initialising.size > 0 ? [...initialising] : [null];
  for (const member of memberNodes(cls)) {
    if (member.type === 'block' || (!isInterface(cls) && isInstanceInitialisedField(member))) {
      for (const signature of runners) methods.push(toMethod(source, cls, member, '<init>', signature));
    }
  }
  return methods;
}

/**
 * Java methods named as JaCoCo names them. Lambdas are not listed: their lines belong to the
 * enclosing method (JaCoCo's `lambda$m$0` is matched to it by the incremental figures).
 */
export function javaMethods(tree: Tree, source: string, hashed: HashFilter = HASH_ALL): SourceMethod[] {
  const root = tree.rootNode;
  const pkg = root.namedChildren.find((c) => c?.type === 'package_declaration');
  const packageName = pkg?.namedChildren.find((c) => c?.type === 'scoped_identifier' || c?.type === 'identifier');
  const scope = readImports(root, packageName ? packageName.text.replace(/\s+/g, '').replaceAll('.', '/') : '');
  const { sites, comments } = classSitesAndComments(root);
  const file: JavaSource = { text: source, comments, hashed };
  const methods: SourceMethod[] = [];
  for (const cls of collectClasses(sites, scope)) methods.push(...methodsOfClass(file, cls, scope));
  return methods.sort((a, b) => a.startLine - b.startLine || a.endLine - b.endLine);
}
