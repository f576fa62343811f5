import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { jacocoClassId } from '../formats/jacoco-class-id.ts';
import { type ClassFile, readClassArchive } from './class-archive.ts';

/**
 * JaCoCo's class id of every class file under a folder of compiled classes (a build's output
 * such as `target/classes`), by JVM internal name (`demo/Shop$Item`, the file's path without
 * `.class`): what exec data is matched against (foreignExecClasses).
 */
export async function classIdsOfFolder(folder: string): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  for (const entry of entries) {
    if (!entry.isFile() || !entry.name.endsWith('.class')) continue;
    const path = join(entry.parentPath, entry.name);
    const name = relative(folder, path).slice(0, -'.class'.length).split(sep).join('/');
    ids.set(name, jacocoClassId(await readFile(path)));
  }
  return ids;
}

/** The class files of a build output folder or a jar (`sextant agent --classes`), by JVM internal name. */
export async function classFilesAt(path: string): Promise<ClassFile[]> {
  if (!(await stat(path)).isDirectory()) return readClassArchive(await readFile(path));
  const files: ClassFile[] = [];
  for (const entry of await readdir(path, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.class')) continue;
    const file = join(entry.parentPath, entry.name);
    const name = relative(path, file).slice(0, -'.class'.length).split(sep).join('/');
    if (name.startsWith('META-INF/')) continue;
    files.push({ name, bytes: await readFile(file) });
  }
  return files.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
