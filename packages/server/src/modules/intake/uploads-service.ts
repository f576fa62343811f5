import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { UploadMeta, UploadResult } from '@sextant/api';
import { CoverageError } from '@sextant/coverage';
import { ApiError } from '../../errors.ts';
import type { ReportConfig } from '../../lib/data-paths.ts';
import type { ClassFiles } from './class-files.ts';
import { isExecFile } from './exec-upload.ts';
import type { ParsedUpload } from './parse-worker.ts';
import type { ReceivedFile } from './receive.ts';
import type { AppRef, IntakeRepository, UploadRow } from './repository.ts';
import type { UploadParsers } from './upload-parsers.ts';
import type { UploadStore } from './upload-store.ts';

/** A gzipped upload may expand freely up to this size; past it, at most `uploadMaxRatio` times. */
const RATIO_CHECKED_FROM_BYTES = 8 * 1024 * 1024;

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

/** Coverage files sent by CI and agents: parsed once on arrival, kept by the store, recorded in coverage_uploads. */
export class UploadsService {
  constructor(
    private readonly repository: IntakeRepository,
    private readonly config: ReportConfig,
    private readonly parsers: UploadParsers,
    private readonly store: UploadStore,
    private readonly classFiles: ClassFiles,
  ) {}

  /**
   * Parses the received file in a parser thread (and checks it against the app's mirror there); a
   * file the engine refuses is deleted and nothing is recorded. The store keeps an accepted one
   * (on disk or in the database) so that a row never names missing bytes. The size limit holds for the
   * decompressed report too, so that a small gzip cannot stand for a huge report (issue 32).
   */
  async accept(
    app: AppRef,
    meta: UploadMeta,
    received: ReceivedFile,
    uploadedBy: string | null,
    fileName: string,
  ): Promise<UploadResult> {
    const baseDir = meta.baseDir || null;
    let parsed: ParsedUpload;
    try {
      // The parser thread cannot reach the database: JaCoCo execution data gets its commit's lists with the job.
      const exec = meta.format === 'jacoco-exec' || (meta.format === 'auto' && (await isExecFile(received.path)));
      const classSets = exec ? await this.classFiles.setsOf(app.id, [meta.commit]) : [];
      parsed = await this.parsers.parse({
        path: received.path,
        fileName,
        format: meta.format,
        maxDecompressedBytes: this.config.uploadLimitBytes,
        maxCompressionRatio: { ratio: this.config.uploadMaxRatio, fromBytes: RATIO_CHECKED_FROM_BYTES },
        dataDir: this.config.dataDir,
        appId: app.id,
        commit: meta.commit,
        baseDir,
        classSets,
      });
    } catch (error) {
      await rm(received.path, { force: true });
      if (error instanceof CoverageError) throw refusal(error, fileName);
      throw error;
    }
    const uploadId = randomUUID();
    await this.store.keep(received, {
      id: uploadId,
      appId: app.id,
      commit: meta.commit,
      commitSha: parsed.commitSha,
      envType: meta.envType,
      testType: meta.testType,
      caseId: meta.caseId || null,
      agentId: meta.agentId || null,
      format: parsed.format,
      baseDir,
      sizeBytes: received.sizeBytes,
      files: parsed.files,
      unmappedFiles: parsed.unmappedFiles,
      uploadedBy,
    });
    return { uploadId, format: parsed.format, files: parsed.files, unmappedFiles: parsed.unmappedFiles };
  }

  async list(query: { appId?: string; teamIds: string[] | null; page: number; perPage: number }) {
    const { rows, total } = await this.repository.uploads(query);
    return { items: rows.map(toUpload), total };
  }
}
