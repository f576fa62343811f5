import { randomUUID } from 'node:crypto';
import { rename, rm } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { UploadMeta, UploadResult } from '@sextant/api';
import { type Coverage, CoverageError } from '@sextant/coverage';
import { readCoverageFile } from '@sextant/coverage/node';
import type { ReportConfig } from '../../lib/data-paths.ts';
import { ApiError } from '../../plugins/errors.ts';
import { refuseUnsafeCoverageText } from './coverage-text.ts';
import { checkAgainstMirror } from './mirror-paths.ts';
import type { ReceivedFile } from './receive.ts';
import type { AppRef, IntakeRepository, UploadRow } from './repository.ts';

function toUpload(row: UploadRow) {
  return {
    id: row.id,
    appId: row.appId,
    commit: row.commit,
    envType: row.envType,
    testType: row.testType,
    caseId: row.caseId,
    agentId: row.agentId,
    format: row.format,
    baseDir: row.baseDir,
    sizeBytes: row.sizeBytes,
    files: row.files,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The engine's reason, without the server's temporary file name. */
function refusal(error: CoverageError, fileName: string): ApiError {
  const at = error.line === null ? '' : ` at line ${error.line}${error.column === null ? '' : `:${error.column}`}`;
  const what = `${fileName}${at}: ${error.reason} (${error.code})`;
  if (error.code === 'too-large')
    return new ApiError(413, 'payload-too-large', `The coverage file is too large: ${what}`);
  return new ApiError(400, 'bad-request', `The coverage file was refused: ${what}`);
}

/** Coverage files sent by CI and agents: parsed once on arrival, kept on disk, recorded in coverage_uploads. */
export class UploadsService {
  constructor(
    private readonly repository: IntakeRepository,
    private readonly config: ReportConfig,
  ) {}

  /**
   * Parses the received file; a file the engine refuses is deleted and nothing is recorded. A kept
   * file is renamed to its upload id before the row is written, so a row never names a missing file.
   */
  async accept(
    app: AppRef,
    meta: UploadMeta,
    received: ReceivedFile,
    uploadedBy: string | null,
    fileName: string,
  ): Promise<UploadResult> {
    let coverage: Coverage;
    try {
      coverage = await readCoverageFile(received.path, { format: meta.format, fileName });
      refuseUnsafeCoverageText(coverage);
    } catch (error) {
      await rm(received.path, { force: true });
      if (error instanceof CoverageError) throw refusal(error, fileName);
      throw error;
    }
    const uploadId = randomUUID();
    const baseDir = meta.baseDir || null;
    const stored = join(received.path, '..', `${uploadId}.${coverage.format}${received.gzip ? '.gz' : ''}`);
    try {
      const mirror = await checkAgainstMirror(this.config.dataDir, app.id, meta.commit, coverage, baseDir);
      await rename(received.path, stored);
      await this.repository.insertUpload({
        id: uploadId,
        appId: app.id,
        commit: meta.commit,
        commitSha: mirror.commitSha,
        envType: meta.envType,
        testType: meta.testType,
        caseId: meta.caseId || null,
        agentId: meta.agentId || null,
        format: coverage.format,
        baseDir,
        storedPath: relative(this.config.dataDir, stored).split(sep).join('/'),
        sizeBytes: received.sizeBytes,
        files: coverage.files.length,
        unmappedFiles: mirror.unmappedFiles,
        uploadedBy,
      });
      return { uploadId, format: coverage.format, files: coverage.files.length, unmappedFiles: mirror.unmappedFiles };
    } catch (error) {
      await rm(received.path, { force: true });
      await rm(stored, { force: true });
      throw error;
    }
  }

  async list(query: { appId?: string; teamIds: string[] | null; page: number; perPage: number }) {
    const { rows, total } = await this.repository.uploads(query);
    return { items: rows.map(toUpload), total };
  }
}
