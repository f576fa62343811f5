import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { classFilesDir } from '../../lib/data-paths.ts';
import { type ClassFileStorage, type ClassSet, sha256 } from './class-files.ts';

/** Writes whole or not at all: a reader never sees half a file. */
async function writeAtomically(path: string, bytes: Uint8Array | string): Promise<void> {
  const partial = `${path}.${randomUUID()}.partial`;
  await writeFile(partial, bytes, { flag: 'wx' });
  await rename(partial, path);
}

/**
 * Class files under `<data>/class-files/<app>/`: `blobs/<sha256>.class`, and
 * `commits/<sha256 of the commit as sent>/<sha256 of the list>.json` for each list recorded. Names
 * are never paths on disk: a content is filed by its hash, a list by the hash of its JSON. Only the
 * processes that see this data folder read them (one machine, or a shared mount).
 */
export class ClassFilesOnDisk implements ClassFileStorage {
  constructor(private readonly dataDir: string) {}

  private blobPath(appId: string, hash: string): string {
    return join(classFilesDir(this.dataDir, appId), 'blobs', `${hash}.class`);
  }

  private commitDir(appId: string, commit: string): string {
    return join(classFilesDir(this.dataDir, appId), 'commits', sha256(commit));
  }

  async present(appId: string, hashes: readonly string[]): Promise<Set<string>> {
    return new Set(hashes.filter((hash) => existsSync(this.blobPath(appId, hash))));
  }

  async keep(appId: string, blobs: readonly { sha256: string; bytes: Uint8Array }[]): Promise<number> {
    await mkdir(join(classFilesDir(this.dataDir, appId), 'blobs'), { recursive: true });
    let kept = 0;
    for (const blob of blobs) {
      const path = this.blobPath(appId, blob.sha256);
      if (existsSync(path)) continue;
      await writeAtomically(path, blob.bytes);
      kept++;
    }
    return kept;
  }

  async contents(appId: string, hashes: readonly string[]): Promise<Map<string, Buffer>> {
    const found = new Map<string, Buffer>();
    for (const hash of hashes) {
      try {
        found.set(hash, await readFile(this.blobPath(appId, hash)));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
    return found;
  }

  async keepList(appId: string, listHash: string, set: ClassSet): Promise<void> {
    const dir = this.commitDir(appId, set.commit);
    await mkdir(dir, { recursive: true });
    const path = join(dir, `${listHash}.json`);
    if (!existsSync(path)) await writeAtomically(path, JSON.stringify(set));
  }

  async lists(appId: string, commit: string): Promise<ClassSet[]> {
    const dir = this.commitDir(appId, commit);
    const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.json')).sort();
    const sets: ClassSet[] = [];
    for (const name of names) sets.push(JSON.parse(await readFile(join(dir, name), 'utf8')) as ClassSet);
    return sets;
  }

  async removeLeftovers(): Promise<void> {
    const root = join(this.dataDir, 'class-files');
    for (const entry of await readdir(root, { recursive: true }).catch(() => [] as string[])) {
      if (entry.endsWith('.partial')) await rm(join(root, entry), { force: true });
    }
  }
}
