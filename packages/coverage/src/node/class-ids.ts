import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { jacocoClassId } from '../formats/jacoco-class-id.ts';

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
