import { join } from 'node:path';
import type { RepoPolicy } from '../modules/apps/repo-location.ts';
import type { UploadStorage } from '../modules/intake/upload-store.ts';

/**
 * Where report work lives under the data directory. One place, because uploads are written by the
 * intake module, read by the pipeline, and mirrors are written by the pipeline and read by the source view.
 */
export type ReportConfig = {
  dataDir: string;
  /** Where accepted uploads' bytes are kept (ADR 0006): the data directory, or the database. */
  uploadStorage: UploadStorage;
  uploadLimitBytes: number;
  uploadMaxRatio: number;
  uploadParsers: number;
  uploadQueue: number;
  uploadParseMemoryMb: number;
  /** JaCoCo's jars, for turning exec uploads into figures (issue 38). */
  jacocoLib: string;
  reportConcurrency: number;
  gitTimeoutMs: number;
  runJobs: boolean;
  build: BuildSettings;
  /** Where app repositories may be; checked again before every clone or fetch. */
  repoPolicy: RepoPolicy;
};

/** How app build commands run (issue 32): the sandbox, its user, the variables passed, what to mask. */
export type BuildSettings = {
  sandbox: 'auto' | 'bwrap' | 'user' | 'off';
  user: string;
  envPass: readonly string[];
  /** Values masked as *** in build output before it is stored or published. */
  secrets: readonly string[];
};

/** A bare mirror of the app's registered repository. */
export function mirrorDir(dataDir: string, appId: string): string {
  return join(dataDir, 'repos', `${appId}.git`);
}

/** Stored coverage files of one app; a row of coverage_uploads keeps its path relative to `dataDir`. */
export function uploadsDir(dataDir: string, appId: string): string {
  return join(dataDir, 'uploads', appId);
}

/** Class files sent for JaCoCo execution data, by content (sha256), and each commit's lists of them. */
export function classFilesDir(dataDir: string, appId: string): string {
  return join(dataDir, 'class-files', appId);
}

/** What the pipeline keeps to skip work on later runs (method extractions keyed by git object ids). */
export function cacheDir(dataDir: string): string {
  return join(dataDir, 'cache');
}
