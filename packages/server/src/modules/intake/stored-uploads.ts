import { type Coverage, CoverageError } from '@sextant/coverage';
import {
  type Bounds,
  boundedBytes,
  type ReadOptions,
  readBoundedFile,
  readCoverageFile,
  readCoverageStream,
} from '@sextant/coverage/node';
import type { ClassFiles, ClassSet } from './class-files.ts';
import type { IntakeRepository, UploadRow } from './repository.ts';
import type { UploadStore } from './upload-store.ts';

/** The uploads kept by the intake, as the report pipeline reads them (coverage_uploads is the intake's table). */
export class StoredUploads {
  constructor(
    private readonly repository: IntakeRepository,
    private readonly store: UploadStore,
    private readonly classFiles: ClassFiles,
  ) {}

  /** The uploads that may hold coverage of a report: same app, environment and test type, oldest first. */
  forReport(appId: string, envType: string, testType: number): Promise<UploadRow[]> {
    return this.repository.uploadsFor(appId, envType, testType);
  }

  /** Stores what each upload's commit resolved to, once (an upload names a fixed commit). */
  resolveCommits(resolved: { id: string; commitSha: string }[]): Promise<void> {
    return this.repository.setUploadCommits(resolved);
  }

  /**
   * Parses a kept upload wherever its bytes are (ADR 0006): a file under this process's data
   * directory, or the database's chunks, streamed (a worker on another machine reads those).
   */
  read(upload: UploadRow, options: ReadOptions): Promise<Coverage> {
    const opened = this.store.open(upload);
    if ('path' in opened) return readCoverageFile(opened.path, options);
    return readCoverageStream(opened.stream, { fileName: `upload ${upload.id}`, ...options });
  }

  /** A kept upload whole, gunzipped, within `bounds`: for what is read whole (JaCoCo execution data). */
  async bytes(upload: UploadRow, bounds: Bounds): Promise<Buffer> {
    const opened = this.store.open(upload);
    if ('path' in opened) return readBoundedFile(opened.path, bounds);
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of opened.stream) {
      size += (chunk as Buffer).length;
      // Kept gzipped: more stored bytes than the bound allows once expanded cannot be within it.
      if (size > bounds.maxBytes) throw new CoverageError('too-large', `it holds more than ${bounds.maxBytes} bytes`);
      chunks.push(chunk as Buffer);
    }
    return boundedBytes(Buffer.concat(chunks), bounds, `upload ${upload.id}`);
  }

  /** The class lists recorded for these commits (as uploads name them): what exec uploads are read with. */
  classSets(appId: string, commits: readonly string[]): Promise<ClassSet[]> {
    return this.classFiles.setsOf(appId, commits);
  }

  /** Writes these stored class files into `folder`, each as `<sha256>.class`, wherever they are kept. */
  writeClassFiles(appId: string, hashes: readonly string[], folder: string): Promise<void> {
    return this.classFiles.writeInto(appId, hashes, folder);
  }
}
