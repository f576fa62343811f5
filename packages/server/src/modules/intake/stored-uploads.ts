import type { ClassFileStore, ClassSet } from './class-files.ts';
import type { IntakeRepository, UploadRow } from './repository.ts';

/** The uploads kept by the intake, as the report pipeline reads them (coverage_uploads is the intake's table). */
export class StoredUploads {
  constructor(
    private readonly repository: IntakeRepository,
    private readonly classFiles: ClassFileStore,
  ) {}

  /** The uploads that may hold coverage of a report: same app, environment and test type, oldest first. */
  forReport(appId: string, envType: string, testType: number): Promise<UploadRow[]> {
    return this.repository.uploadsFor(appId, envType, testType);
  }

  /** Stores what each upload's commit resolved to, once (an upload names a fixed commit). */
  resolveCommits(resolved: { id: string; commitSha: string }[]): Promise<void> {
    return this.repository.setUploadCommits(resolved);
  }

  /** The class lists recorded for these commits (as uploads name them): what exec uploads are read with. */
  classSets(appId: string, commits: readonly string[]): Promise<ClassSet[]> {
    return this.classFiles.setsOf(appId, commits);
  }

  /** Where a stored class file's content is. */
  classFilePath(appId: string, sha256: string): string {
    return this.classFiles.blobPath(appId, sha256);
  }
}
