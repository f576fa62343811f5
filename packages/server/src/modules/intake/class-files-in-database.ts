import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import type { ClassFileStorage, ClassSet } from './class-files.ts';
import type { IntakeRepository } from './repository.ts';

const gzipped = promisify(gzip);
const gunzipped = promisify(gunzip);

/**
 * Class files in PostgreSQL (ADR 0006): contents gzipped in class_blobs by (app, sha256), lists as
 * class_lists rows by (app, commit as sent, sha256 of the list's JSON). Any worker on any machine
 * reads them; both go with their app.
 */
export class ClassFilesInDatabase implements ClassFileStorage {
  constructor(private readonly repository: IntakeRepository) {}

  async present(appId: string, hashes: readonly string[]): Promise<Set<string>> {
    return new Set(await this.repository.classBlobHashes(appId, hashes));
  }

  async keep(appId: string, blobs: readonly { sha256: string; bytes: Uint8Array }[]): Promise<number> {
    // gzip off the event loop (libuv's pool): an archive may hold thousands of classes.
    const rows = await Promise.all(blobs.map(async (b) => ({ sha256: b.sha256, data: await gzipped(b.bytes) })));
    return this.repository.insertClassBlobs(appId, rows);
  }

  async contents(appId: string, hashes: readonly string[]): Promise<Map<string, Buffer>> {
    const rows = await this.repository.classBlobsOf(appId, hashes);
    return new Map(
      await Promise.all(rows.map(async (r): Promise<[string, Buffer]> => [r.sha256, await gunzipped(r.data)])),
    );
  }

  async keepList(appId: string, listHash: string, set: ClassSet): Promise<void> {
    await this.repository.insertClassList({ appId, commit: set.commit, listSha256: listHash, classes: set.classes });
  }

  lists(appId: string, commit: string): Promise<ClassSet[]> {
    return this.repository.classListsOf(appId, commit);
  }

  /** Each write is one statement: a failure leaves nothing behind. */
  async removeLeftovers(): Promise<void> {}
}
