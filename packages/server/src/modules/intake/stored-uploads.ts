import type { Coverage } from '@sextant/coverage';
import { type ReadOptions, readCoverageFile, readCoverageStream } from '@sextant/coverage/node';
import type { IntakeRepository, UploadRow } from './repository.ts';
import type { UploadStore } from './upload-store.ts';

/** The uploads kept by the intake, as the report pipeline reads them (coverage_uploads is the intake's table). */
export class StoredUploads {
  constructor(
    private readonly repository: IntakeRepository,
    private readonly store: UploadStore,
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
}
