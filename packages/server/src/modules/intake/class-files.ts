import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ClassSetRequest, ClassSetResult } from '@sextant/api';
import { jacocoClassId } from '@sextant/coverage';
import type { ClassFile } from '@sextant/coverage/node';
import { ApiError } from '../../errors.ts';
import { classFilesDir } from '../../lib/data-paths.ts';

/** One class of a commit's list: its JVM name, its content's sha256 and JaCoCo's class id of it. */
export type StoredClass = { name: string; sha256: string; classId: string };
/** A list of class files recorded for a commit (one per distinct build an agent sent). */
export type ClassSet = { commit: string; classes: StoredClass[] };

const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');

/** Writes whole or not at all: a reader never sees half a file. */
async function writeAtomically(path: string, bytes: Uint8Array | string): Promise<void> {
  const partial = `${path}.${randomUUID()}.partial`;
  await writeFile(partial, bytes, { flag: 'wx' });
  await rename(partial, path);
}

/**
 * Class files stored by content (issue 38) under `<data>/class-files/<app>/`: `blobs/<sha256>.class`,
 * and `commits/<sha256 of the commit as sent>/<sha256 of the list>.json` for each list recorded.
 * Per app, so that "which contents do you have" tells an app nothing of another's classes. Names are
 * never paths on disk: a content is filed by its hash, a list by the hash of its JSON.
 */
export class ClassFileStore {
  constructor(private readonly dataDir: string) {}

  blobPath(appId: string, hash: string): string {
    return join(classFilesDir(this.dataDir, appId), 'blobs', `${hash}.class`);
  }

  private commitDir(appId: string, commit: string): string {
    return join(classFilesDir(this.dataDir, appId), 'commits', sha256(commit));
  }

  /** Stores the archive's class files not stored yet. */
  async store(appId: string, files: readonly ClassFile[]): Promise<{ stored: number; known: number }> {
    await mkdir(join(classFilesDir(this.dataDir, appId), 'blobs'), { recursive: true });
    let stored = 0;
    for (const file of files) {
      const path = this.blobPath(appId, sha256(file.bytes));
      if (existsSync(path)) continue;
      await writeAtomically(path, file.bytes);
      stored++;
    }
    return { stored, known: files.length - stored };
  }

  /**
   * Records a commit's list of classes when every content is stored; otherwise answers the missing
   * contents and records nothing. The same list sent again is recorded once.
   */
  async record(appId: string, request: ClassSetRequest): Promise<ClassSetResult> {
    const seen = new Set<string>();
    for (const { name } of request.classes) {
      if (seen.has(name)) throw new ApiError(400, 'bad-request', `The class ${name} is listed twice.`);
      seen.add(name);
    }
    const missing = [...new Set(request.classes.map((c) => c.sha256))].filter(
      (hash) => !existsSync(this.blobPath(appId, hash)),
    );
    if (missing.length > 0) return { recorded: false, classes: request.classes.length, missing };
    const classes: StoredClass[] = [];
    for (const { name, sha256: hash } of [...request.classes].sort((a, b) => (a.name < b.name ? -1 : 1))) {
      classes.push({ name, sha256: hash, classId: jacocoClassId(await readFile(this.blobPath(appId, hash))) });
    }
    const text = JSON.stringify({ commit: request.commit, classes } satisfies ClassSet);
    const dir = this.commitDir(appId, request.commit);
    await mkdir(dir, { recursive: true });
    const path = join(dir, `${sha256(text)}.json`);
    if (!existsSync(path)) await writeAtomically(path, text);
    return { recorded: true, classes: classes.length, missing: [] };
  }

  /** The lists recorded for these commits (as the uploads name them), in a stable order. */
  async setsOf(appId: string, commits: readonly string[]): Promise<ClassSet[]> {
    const sets: ClassSet[] = [];
    for (const commit of [...new Set(commits)].sort()) {
      const dir = this.commitDir(appId, commit);
      const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.json')).sort();
      for (const name of names) sets.push(JSON.parse(await readFile(join(dir, name), 'utf8')) as ClassSet);
    }
    return sets;
  }

  /** Removes what a failed write left (`*.partial`); run as the server starts. */
  async removePartials(): Promise<void> {
    const root = join(this.dataDir, 'class-files');
    for (const entry of await readdir(root, { recursive: true }).catch(() => [] as string[])) {
      if (entry.endsWith('.partial')) await rm(join(root, entry), { force: true });
    }
  }
}

/** The class ids of a commit's lists by class name (a name may have several builds across lists). */
export function classIdsByName(sets: readonly ClassSet[]): Map<string, StoredClass[]> {
  const byName = new Map<string, StoredClass[]>();
  for (const set of sets) {
    for (const cls of set.classes) {
      const known = byName.get(cls.name) ?? [];
      if (!known.some((k) => k.sha256 === cls.sha256)) known.push(cls);
      byName.set(cls.name, known);
    }
  }
  return byName;
}
