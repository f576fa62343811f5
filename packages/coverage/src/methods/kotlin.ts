import type { Node, Tree } from 'web-tree-sitter';
import { normalisedText } from './body-hash.ts';
import { sha1Hex } from './sha1.ts';
import { HASH_ALL, type HashFilter, type SourceMethod } from './types.ts';

const childOfType = (node: Node, type: string) => node.namedChildren.find((c) => c?.type === type) ?? null;

/** `src/main/kotlin/util.kt` -> `UtilKt`, the class kotlinc puts top-level functions in. */
function fileClassName(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1).replace(/\.kts?$/, '');
  return `${base.charAt(0).toUpperCase()}${base.slice(1)}Kt`;
}

interface KotlinClass {
  internalName: string;
  node: Node;
  body: Node | null;
  isInterface: boolean;
}

/**
 * Kotlin functions with JVM class names (`pkg/Outer$Inner`, `pkg/Outer$Companion`, `pkg/FileKt`).
 * Constructors and `init` blocks are `<init>`; signatures are left null because Kotlin's mapping
 * of its types to JVM descriptors (nullability, default-argument bridges, inline classes) is not
 * derivable from one file. Lambdas and local functions belong to the enclosing function.
 */
export function kotlinMethods(tree: Tree, source: string, path: string, hashed: HashFilter = HASH_ALL): SourceMethod[] {
  const root = tree.rootNode;
  const pkgNode = childOfType(root, 'package_header');
  const pkgName = pkgNode ? (childOfType(pkgNode, 'identifier')?.text.replace(/\s+/g, '') ?? '') : '';
  const prefix = pkgName ? `${pkgName.replaceAll('.', '/')}/` : '';
  const fileClass = `${prefix}${fileClassName(path || 'File.kt')}`;
  const methods: SourceMethod[] = [];

  const add = (cls: string, name: string, node: Node, endNode: Node = node) => {
    const startLine = node.startPosition.row + 1;
    const endLine = endNode.endPosition.row + 1;
    const bodyHash = hashed(startLine, endLine) ? sha1Hex(normalisedText(source, node)) : '';
    methods.push({ class: cls, name, signature: null, startLine, endLine, bodyHash });
  };

  const visitMembers = (container: Node | null, owner: KotlinClass | null) => {
    if (!container) return;
    for (const member of container.namedChildren) {
      if (!member) continue;
      if (member.type === 'function_declaration') {
        if (!childOfType(member, 'function_body')) continue;
        const name = childOfType(member, 'simple_identifier')?.text ?? '';
        add(owner?.internalName ?? fileClass, name, member);
      } else if (
        member.type === 'class_declaration' ||
        member.type === 'object_declaration' ||
        member.type === 'companion_object'
      ) {
        const declared =
          childOfType(member, 'type_identifier')?.text ?? (member.type === 'companion_object' ? 'Companion' : '');
        const internalName = owner ? `${owner.internalName}$${declared}` : `${prefix}${declared}`;
        const isInterface = member.children.some((c) => c?.type === 'interface');
        const body = childOfType(member, 'class_body') ?? childOfType(member, 'enum_class_body');
        visitClass({ internalName, node: member, body, isInterface });
      } else if (owner && member.type === 'enum_entry') {
        // An entry with a body is its own class, `Color$RED`.
        const entry = childOfType(member, 'simple_identifier')?.text ?? '';
        visitMembers(childOfType(member, 'class_body'), { ...owner, internalName: `${owner.internalName}$${entry}` });
      } else if (owner && member.type === 'secondary_constructor') {
        add(owner.internalName, '<init>', member);
      } else if (owner && member.type === 'anonymous_initializer') {
        add(owner.internalName, '<init>', member);
      }
    }
  };

  const visitClass = (cls: KotlinClass) => {
    if (!cls.isInterface) {
      // The primary (or implicit) constructor: the header, up to where the body begins.
      const header = childOfType(cls.node, 'primary_constructor') ?? cls.node;
      const line = header.startPosition.row + 1;
      const end = (childOfType(cls.node, 'primary_constructor') ?? cls.node).endPosition.row + 1;
      methods.push({
        class: cls.internalName,
        name: '<init>',
        signature: null,
        startLine: Math.min(line, cls.node.startPosition.row + 1),
        endLine: cls.body ? Math.min(end, cls.body.startPosition.row + 1) : end,
        bodyHash: sha1Hex(`${cls.internalName}.<init>${header.text.replace(/\s+/g, ' ')}`),
      });
    }
    visitMembers(cls.body, cls);
  };

  visitMembers(root, null);
  return methods.sort((a, b) => a.startLine - b.startLine || a.endLine - b.endLine);
}
