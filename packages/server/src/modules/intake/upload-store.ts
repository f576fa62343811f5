import { createReadStream, createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { constants, createGzip } from 'node:zlib';
import type { ReceivedFile } from './receive.ts';
import type { IntakeRepository, NewUpload, UploadRow } from './repository.ts';

/**
 * Where kept uploads' bytes live (ADR 0006): `file` under the data directory (one machine, or a
 * folder every process mounts), `database` gzipped in upload_blobs (any worker on any machine).
 */
export type UploadStorage = 'file' | 'database';

/** About 1 MiB a row: few round trips, and a reader holds one chunk at a time. */
export const BLOB_CHUNK_BYTES = 1 << 20;

/** An upload row as the intake records it; where its bytes are is the store's to say. */
export type UploadToKeep = Omit<NewUpload, 'storage' | 'storedPath'> & { id: string; format: string };

/**
 * Keeps the bytes of accepted uploads and opens them again for the report pipeline. A row never
 * names bytes that are not there: on disk the file is renamed into place before the row is written;
 * in the database the row and its chunks are written in one transaction.
 */
export class UploadStore {
  constructor(
    private readonly repository: IntakeRepository,
    private readonly dataDir: string,
    private readonly storage: UploadStorage,
  ) {}

  /** Records the upload and keeps its bytes; the received file is gone afterwards, kept or not. */
  async keep(received: ReceivedFile, upload: UploadToKeep): Promise<void> {
    if (this.storage === 'database') return this.keepInDatabase(received, upload);
    const stored = join(received.path, '..', `${upload.id}.${upload.format}${received.gzip ? '.gz' : ''}`);
    try {
      await rename(received.path, stored);
      const storedPath = relative(this.dataDir, stored).split(sep).join('/');
      await this.repository.insertUpload({ ...upload, storage: 'file', storedPath });
    } catch (error) {
      await rm(received.path, { force: true });
      await rm(stored, { force: true });
      throw error;
    }
  }

  /**
   * A plain upload is gzipped to a file beside it first (a dot-name, so a crash leaves nothing that
   * `removePartialUploads` would not remove), so that the transaction lasts only the inserts: on the
   * embedded database a transaction holds its only connection.
   */
  private async keepInDatabase(received: ReceivedFile, upload: UploadToKeep): Promise<void> {
    const gzipped = received.gzip ? received.path : `${received.path}.gz`;
    try {
      if (!received.gzip) {
        // Speed over ratio: level 1 already shrinks machine-written XML and LCOV about tenfold.
        await pipeline(
          createReadStream(received.path),
          createGzip({ level: constants.Z_BEST_SPEED }),
          createWriteStream(gzipped, { flags: 'wx' }),
        );
      }
      await this.repository.insertUploadWithBlobs(
        { ...upload, storage: 'database', storedPath: null },
        createReadStream(gzipped, { highWaterMark: BLOB_CHUNK_BYTES }),
      );
    } finally {
      await rm(received.path, { force: true });
      await rm(gzipped, { force: true });
    }
  }

  /**
   * A kept upload's bytes as the pipeline reads them: a database-kept one streams chunk by chunk
   * (gzipped; the reader recognises gzip by its magic bytes), a file-kept one is the file's path.
   */
  open(upload: UploadRow): { path: string } | { stream: Readable } {
    if (upload.storage === 'database') return { stream: this.chunks(upload.id) };
    if (!upload.storedPath) throw new Error(`upload ${upload.id} names no stored file`);
    return { path: join(this.dataDir, upload.storedPath) };
  }

  private chunks(uploadId: string): Readable {
    const repository = this.repository;
    return Readable.from(
      (async function* () {
        for (let seq = 0; ; seq++) {
          const data = await repository.blobChunk(uploadId, seq);
          if (data) yield data;
          else if (seq === 0) throw new Error(`the bytes of upload ${uploadId} are missing from the database`);
          else return;
        }
      })(),
      { objectMode: false },
    );
  }
}
