import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ClassSetRequest, ClassSetResult } from '@sextant/api';
import { jacocoClassId } from '@sextant/coverage';
import type { ClassFile } from '@sextant/coverage/node';
import { ApiError } from '../../errors.ts';

/** One class of a commit's list: its JVM name, its content's sha256 and JaCoCo's class id of it. */
export type StoredClass = { name: string; sha256: string; classId: string };
/** A list of class files recorded for a commit (one per distinct build an agent sent). */
export type ClassSet = { commit: string; classes: StoredClass[] };

export const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');

/**
 * Where class files and their lists are kept (ADR 0006): the data folder of the process that
 * received them, or the database (any worker on any machine reads them). Always per app, so that
 * "which contents do you have" tells an app nothing of another's classes.
 */
export interface ClassFileStorage {
  /** Of these contents, the ones kept for the app. */
  present(appId: string, hashes: readonly string[]): Promise<Set<string>>;
  /** Keeps these contents (distinct hashes); answers how many were not kept yet. A concurrent store of the same content is no failure. */
  keep(appId: string, blobs: readonly { sha256: string; bytes: Uint8Array }[]): Promise<number>;
  /** The bytes of these contents, those kept. */
  contents(appId: string, hashes: readonly string[]): Promise<Map<string, Buffer>>;
  /** Records a list under the hash of its JSON, once. */
  keepList(appId: string, listHash: string, set: ClassSet): Promise<void>;
  /** The lists recorded for a commit as sent, by list hash. */
  lists(appId: string, commit: string): Promise<ClassSet[]>;
  /** Removes what a failed write left; run as the server starts. */
  removeLeftovers(): Promise<void>;
}

/** Hashes read or written per round trip: few queries, bounded memory, well under a statement's parameters. */
const BATCH = 500;

function batches<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += BATCH) out.push(items.slice(i, i + BATCH));
  return out;
}

/** The rules of class files sent by agents (issue 38), wherever the storage keeps them. */
export class ClassFiles {
  constructor(private readonly storage: ClassFileStorage) {}

  /** Stores the archive's class files not stored yet. */
  async store(appId: string, files: readonly ClassFile[]): Promise<{ stored: number; known: number }> {
    const byHash = new Map<string, Uint8Array>();
    for (const file of files) {
      const hash = sha256(file.bytes);
      if (!byHash.has(hash)) byHash.set(hash, file.bytes);
    }
    let stored = 0;
    for (const hashes of batches([...byHash.keys()])) {
      const present = await this.storage.present(appId, hashes);
      const fresh = hashes
        .filter((h) => !present.has(h))
        .map((h) => ({ sha256: h, bytes: byHash.get(h) as Uint8Array }));
      if (fresh.length > 0) stored += await this.storage.keep(appId, fresh);
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
    const hashes = [...new Set(request.classes.map((c) => c.sha256))];
    const missing: string[] = [];
    for (const batch of batches(hashes)) {
      const present = await this.storage.present(appId, batch);
      missing.push(...batch.filter((h) => !present.has(h)));
    }
    if (missing.length > 0) return { recorded: false, classes: request.classes.length, missing };
    const sorted = [...request.classes].sort((a, b) => (a.name < b.name ? -1 : 1));
    const classes: StoredClass[] = [];
    for (const batch of batches(sorted)) {
      const contents = await this.storage.contents(appId, [...new Set(batch.map((c) => c.sha256))]);
      for (const { name, sha256: hash } of batch) {
        const bytes = contents.get(hash);
        if (!bytes) throw new Error(`the class file ${hash} of app ${appId} went missing`);
        classes.push({ name, sha256: hash, classId: jacocoClassId(bytes) });
      }
    }
    const set: ClassSet = { commit: request.commit, classes };
    await this.storage.keepList(appId, sha256(JSON.stringify(set)), set);
    return { recorded: true, classes: classes.length, missing: [] };
  }

  /** The lists recorded for these commits (as the uploads name them), in a stable order. */
  async setsOf(appId: string, commits: readonly string[]): Promise<ClassSet[]> {
    const sets: ClassSet[] = [];
    for (const commit of [...new Set(commits)].sort()) sets.push(...(await this.storage.lists(appId, commit)));
    return sets;
  }

  /** Writes these stored class files into `folder`, each as `<sha256>.class` (JaCoCo reads a class's name from its bytes). */
  async writeInto(appId: string, hashes: readonly string[], folder: string): Promise<void> {
    for (const batch of batches([...new Set(hashes)])) {
      const contents = await this.storage.contents(appId, batch);
      for (const hash of batch) {
        const bytes = contents.get(hash);
        if (!bytes) throw new Error(`no class file ${hash} is stored for app ${appId}`);
        await writeFile(join(folder, `${hash}.class`), bytes, { flag: 'wx' });
      }
    }
  }

  removeLeftovers(): Promise<void> {
    return this.storage.removeLeftovers();
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
