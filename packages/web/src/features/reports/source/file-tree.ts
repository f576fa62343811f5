import type { ReportFile } from '@sextant/api';

export type FileNode = {
  key: string;
  name: string;
  isLeaf: boolean;
  file?: ReportFile;
  lineCovered: number;
  lineTotal: number;
  changed: boolean;
  /** Changed lines covered and coverable below this node (summed over files with a diff). */
  diffCovered: number;
  diffTotal: number;
  /** A monorepo package's node (its folder, at the top of the tree): never joined with its only child. */
  isPackage?: boolean;
  children?: FileNode[];
};

/** The path's segments in the tree: its package folder first as one segment, then the rest. */
function segmentsOf(file: ReportFile): string[] {
  const inside = file.package && file.path.startsWith(`${file.package}/`);
  if (!inside || !file.package) return file.path.split('/');
  return [file.package, ...file.path.slice(file.package.length + 1).split('/')];
}

/**
 * Folds the report's file paths into a folder tree with summed line counts; a folder with a single
 * sub-folder is joined to it ("src/main/java/com/acme") as code browsers do. In a monorepo, each
 * package (the file's `package` folder) is a node of the top level, whatever its depth.
 */
export function buildFileTree(files: readonly ReportFile[]): FileNode[] {
  const root = emptyNode('', '', false);
  for (const file of files) {
    const parts = segmentsOf(file);
    let node = root;
    add(node, file);
    parts.forEach((part, i) => {
      const key = parts.slice(0, i + 1).join('/');
      const leaf = i === parts.length - 1;
      let child = node.children?.find((c) => c.key === key);
      if (!child) {
        child = emptyNode(key, part, leaf);
        if (leaf) child.file = file;
        if (i === 0 && !leaf && file.package === part) child.isPackage = true;
        node.children?.push(child);
      }
      add(child, file);
      node = child;
    });
  }
  return (root.children ?? []).map(compact).sort(byFoldersFirst);
}

function emptyNode(key: string, name: string, isLeaf: boolean): FileNode {
  const node: FileNode = {
    key,
    name,
    isLeaf,
    lineCovered: 0,
    lineTotal: 0,
    changed: false,
    diffCovered: 0,
    diffTotal: 0,
  };
  if (!isLeaf) node.children = [];
  return node;
}

function add(node: FileNode, file: ReportFile): void {
  node.lineCovered += file.lineCovered;
  node.lineTotal += file.lineTotal;
  node.changed ||= file.changed;
  node.diffCovered += file.diffLineCovered ?? 0;
  node.diffTotal += file.diffLineTotal ?? 0;
}

function compact(node: FileNode): FileNode {
  let current = node;
  while (!current.isLeaf && !current.isPackage && current.children?.length === 1 && !current.children[0]?.isLeaf) {
    const only = current.children[0] as FileNode;
    current = { ...only, name: `${current.name}/${only.name}` };
  }
  if (current.children) current = { ...current, children: current.children.map(compact).sort(byFoldersFirst) };
  return current;
}

function byFoldersFirst(a: FileNode, b: FileNode): number {
  if (Boolean(a.isPackage) !== Boolean(b.isPackage)) return a.isPackage ? -1 : 1;
  if (a.isLeaf !== b.isLeaf) return a.isLeaf ? 1 : -1;
  return a.name.localeCompare(b.name);
}

/** Keys of the folders holding a path, to open the tree down to the chosen file. */
export function ancestorKeys(path: string): string[] {
  const parts = path.split('/');
  return parts.slice(0, -1).map((_, i) => parts.slice(0, i + 1).join('/'));
}
