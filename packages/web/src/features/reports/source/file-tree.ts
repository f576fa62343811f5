import type { ReportFile } from '@sextant/api';

export type FileNode = {
  key: string;
  name: string;
  isLeaf: boolean;
  file?: ReportFile;
  lineCovered: number;
  lineTotal: number;
  changed: boolean;
  children?: FileNode[];
};

/**
 * Folds the report's file paths into a folder tree with summed line counts; a folder with a single
 * sub-folder is joined to it ("src/main/java/com/acme") as code browsers do.
 */
export function buildFileTree(files: readonly ReportFile[]): FileNode[] {
  const root: FileNode = {
    key: '',
    name: '',
    isLeaf: false,
    lineCovered: 0,
    lineTotal: 0,
    changed: false,
    children: [],
  };
  for (const file of files) {
    const parts = file.path.split('/');
    let node = root;
    node.lineCovered += file.lineCovered;
    node.lineTotal += file.lineTotal;
    node.changed ||= file.changed;
    parts.forEach((part, i) => {
      const key = parts.slice(0, i + 1).join('/');
      const leaf = i === parts.length - 1;
      let child = node.children?.find((c) => c.key === key);
      if (!child) {
        child = { key, name: part, isLeaf: leaf, lineCovered: 0, lineTotal: 0, changed: false };
        if (leaf) child.file = file;
        else child.children = [];
        node.children?.push(child);
      }
      child.lineCovered += file.lineCovered;
      child.lineTotal += file.lineTotal;
      child.changed ||= file.changed;
      node = child;
    });
  }
  return (root.children ?? []).map(compact).sort(byFoldersFirst);
}

function compact(node: FileNode): FileNode {
  let current = node;
  while (!current.isLeaf && current.children?.length === 1 && !current.children[0]?.isLeaf) {
    const only = current.children[0] as FileNode;
    current = { ...only, name: `${current.name}/${only.name}` };
  }
  if (current.children) current = { ...current, children: current.children.map(compact).sort(byFoldersFirst) };
  return current;
}

function byFoldersFirst(a: FileNode, b: FileNode): number {
  if (a.isLeaf !== b.isLeaf) return a.isLeaf ? 1 : -1;
  return a.name.localeCompare(b.name);
}

/** Keys of the folders holding a path, to open the tree down to the chosen file. */
export function ancestorKeys(path: string): string[] {
  const parts = path.split('/');
  return parts.slice(0, -1).map((_, i) => parts.slice(0, i + 1).join('/'));
}
