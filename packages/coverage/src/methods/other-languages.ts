import type { Language, Node, Tree } from 'web-tree-sitter';
import { COMMENT_TYPES, normalisedRange } from './body-hash.ts';
import { sha1Hex } from './sha1.ts';
import { HASH_ALL, type HashFilter, type SourceLanguage, type SourceMethod } from './types.ts';

/** How one language marks functions and classes. `anonymous` functions belong to their enclosing one. */
interface LanguageShape {
  classes: Set<string>;
  /** Node types `functionName` may name: only these (and classes) are looked at closely. */
  functions: Set<string>;
  className(node: Node): string | null;
  /** The function's name, `null` when the node is not a function, `anonymous` when it has none. */
  functionName(node: Node): string | null | { anonymous: true };
  /** The class a function names itself (`Foo::bar`, Go receivers), overriding the enclosing one. */
  ownClass?(node: Node): string | null;
  /** The node whose first line starts the method (Python decorators). */
  rangeNode?(node: Node): Node;
}

const ANONYMOUS = { anonymous: true } as const;

interface FoundFunction {
  node: Node;
  range: Node;
  name: string;
  class: string | null;
}
const fieldText = (node: Node, field: string) => node.childForFieldName(field)?.text ?? null;

function boundName(fn: Node): string | null {
  const parent = fn.parent;
  if (!parent) return null;
  switch (parent.type) {
    case 'variable_declarator':
      return fieldText(parent, 'name');
    case 'public_field_definition':
    case 'field_definition':
      return fieldText(parent, 'name') ?? fieldText(parent, 'property');
    case 'pair':
      return fieldText(parent, 'key');
    case 'assignment_expression': {
      const left = parent.childForFieldName('left');
      return left ? left.text.slice(left.text.lastIndexOf('.') + 1) : null;
    }
    default:
      return null;
  }
}

const SCRIPT: LanguageShape = {
  classes: new Set(['class_declaration', 'class', 'abstract_class_declaration']),
  functions: new Set([
    'function_declaration',
    'generator_function_declaration',
    'method_definition',
    'function_expression',
    'function',
    'generator_function',
    'arrow_function',
  ]),
  className: (node) => fieldText(node, 'name'),
  functionName(node) {
    switch (node.type) {
      case 'function_declaration':
      case 'generator_function_declaration':
      case 'method_definition':
        return fieldText(node, 'name') ?? ANONYMOUS;
      case 'function_expression':
      case 'function':
      case 'generator_function':
      case 'arrow_function':
        return boundName(node) ?? fieldText(node, 'name') ?? ANONYMOUS;
      default:
        return null;
    }
  },
};

const PYTHON: LanguageShape = {
  classes: new Set(['class_definition']),
  functions: new Set(['function_definition']),
  className: (node) => fieldText(node, 'name'),
  functionName: (node) => (node.type === 'function_definition' ? (fieldText(node, 'name') ?? ANONYMOUS) : null),
  rangeNode: (node) => (node.parent?.type === 'decorated_definition' ? node.parent : node),
};

const GO: LanguageShape = {
  classes: new Set(),
  functions: new Set(['function_declaration', 'method_declaration']),
  className: () => null,
  functionName: (node) =>
    node.type === 'function_declaration' || node.type === 'method_declaration' ? (fieldText(node, 'name') ?? '') : null,
  ownClass(node) {
    const receiver = node.childForFieldName('receiver')?.namedChildren.find((c) => c?.type === 'parameter_declaration');
    const type = receiver?.childForFieldName('type');
    // `*T`, `T[K]`: the receiver's base type name.
    return type ? (/[A-Za-z_][A-Za-z0-9_]*/.exec(type.text.replace(/^\*/, ''))?.[0] ?? null) : null;
  },
};

/** The innermost declarator naming a C/C++ function (through pointer and reference declarators). */
function functionDeclarator(node: Node): Node | null {
  let declarator = node.childForFieldName('declarator');
  while (declarator && declarator.type !== 'function_declarator')
    declarator = declarator.childForFieldName('declarator');
  return declarator?.childForFieldName('declarator') ?? null;
}

const C_FAMILY: LanguageShape = {
  classes: new Set(['class_specifier', 'struct_specifier']),
  functions: new Set(['function_definition']),
  className: (node) => fieldText(node, 'name'),
  functionName(node) {
    if (node.type !== 'function_definition') return null;
    const name = functionDeclarator(node);
    if (!name) return ANONYMOUS;
    if (name.type === 'qualified_identifier') return name.childForFieldName('name')?.text ?? name.text;
    return name.text;
  },
  ownClass(node) {
    const name = functionDeclarator(node);
    return name?.type === 'qualified_identifier' ? (fieldText(name, 'scope') ?? null) : null;
  },
};

const SHAPES: Partial<Record<SourceLanguage, LanguageShape>> = {
  javascript: SCRIPT,
  typescript: SCRIPT,
  tsx: SCRIPT,
  python: PYTHON,
  go: GO,
  c: C_FAMILY,
  cpp: C_FAMILY,
};

/**
 * Functions of JavaScript/TypeScript, Python, Go and C/C++. Lambdas, arrow callbacks and other
 * nameless functions are part of the function around them; at top level they are `(anonymous)`.
 * Class names are dotted for nested classes.
 */
export function otherLanguageMethods(
  language: SourceLanguage,
  tree: Tree,
  source: string,
  hashed: HashFilter = HASH_ALL,
): SourceMethod[] {
  const shape = SHAPES[language];
  if (!shape) return [];
  const found: FoundFunction[] = [];
  // One walk inside tree-sitter hands over just the function, class and comment nodes (walking
  // every node from JS costs far more, and a query cursor about a third more than this walk);
  // ancestry comes back from their ranges, as they arrive outermost first.
  const { types, comments: commentTypes } = walkedTypes(shape, tree.language);
  const nodes: Node[] = [];
  const comments: Node[] = [];
  for (const node of tree.rootNode.descendantsOfType(types)) {
    if (node) (commentTypes.has(node.type) ? comments : nodes).push(node);
  }
  nodes.sort((a, b) => a.startIndex - b.startIndex || b.endIndex - a.endIndex);
  comments.sort((a, b) => a.startIndex - b.startIndex);
  const frames: Frame[] = [{ end: Number.POSITIVE_INFINITY, classes: [], insideFunction: false }];
  for (const node of nodes) {
    while (node.endIndex > (frames[frames.length - 1] as Frame).end) frames.pop();
    const frame = frames[frames.length - 1] as Frame;
    let { classes, insideFunction } = frame;
    if (shape.classes.has(node.type) && node.childForFieldName('body')) {
      classes = [...frame.classes, shape.className(node) ?? '(anonymous)'];
    }
    const name = shape.functions.has(node.type) ? shape.functionName(node) : null;
    if (name !== null && (typeof name === 'string' || !frame.insideFunction)) {
      const cls = shape.ownClass?.(node) ?? (frame.classes.length > 0 ? frame.classes.join('.') : null);
      found.push({
        node,
        range: shape.rangeNode?.(node) ?? node,
        name: typeof name === 'string' ? name : '(anonymous)',
        class: cls,
      });
      insideFunction = true;
    }
    frames.push({ end: node.endIndex, classes, insideFunction });
  }
  return toSourceMethods(found, source, comments, hashed);
}

/** What a node's descendants inherit: the class path and whether a named function encloses them. */
interface Frame {
  end: number;
  classes: string[];
  insideFunction: boolean;
}

const WALKED = new WeakMap<Language, Map<LanguageShape, { types: string[]; comments: Set<string> }>>();

/** The function, class and comment types the grammar has, for `descendantsOfType`. */
function walkedTypes(shape: LanguageShape, language: Language): { types: string[]; comments: Set<string> } {
  let byShape = WALKED.get(language);
  if (!byShape) {
    byShape = new Map();
    WALKED.set(language, byShape);
  }
  let walked = byShape.get(shape);
  if (!walked) {
    const known = (type: string) => language.idForNodeType(type, true) !== null;
    const comments = COMMENT_TYPES.filter(known);
    walked = {
      types: [...[...shape.functions, ...shape.classes].filter(known), ...comments],
      comments: new Set(comments),
    };
    byShape.set(shape, walked);
  }
  return walked;
}

/** Source methods of the functions found, sorted by start line. */
function toSourceMethods(
  found: readonly FoundFunction[],
  source: string,
  comments: readonly Node[],
  hashed: HashFilter,
): SourceMethod[] {
  const methods: SourceMethod[] = [];
  for (const f of found) {
    const startLine = f.range.startPosition.row + 1;
    const endLine = f.node.endPosition.row + 1;
    const bodyHash = hashed(startLine, endLine)
      ? sha1Hex(normalisedRange(source, f.node.startIndex, f.node.endIndex, comments))
      : '';
    methods.push({ class: f.class, name: f.name, signature: null, startLine, endLine, bodyHash });
  }
  return methods.sort((a, b) => a.startLine - b.startLine || a.endLine - b.endLine);
}
