import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Removes partial uploads (`.incoming-*`, see receive.ts) that a crash left in the apps' upload
 * folders: no upload row points at them and nothing else would ever remove them (issue 32, finding 9).
 * Run as the server starts, before it takes uploads.
 */
export async function removePartialUploads(dataDir: string): Promise<string[]> {
  const root = join(dataDir, 'uploads');
  const apps = await readdir(root, { withFileTypes: true }).catch(() => []);
  const removed: string[] = [];
  for (const app of apps) {
    if (!app.isDirectory()) continue;
    const dir = join(root, app.name);
    for (const name of await readdir(dir)) {
      if (!name.startsWith('.incoming-')) continue;
      await rm(join(dir, name), { force: true });
      removed.push(join(dir, name));
    }
  }
  return removed;
}
