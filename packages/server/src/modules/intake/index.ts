import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { ReportConfig } from '../../lib/data-paths.ts';
import type { AppsService } from '../apps/service.ts';
import { IntakeActivityReads } from './activity-reads.ts';
import { AgentsService, type ReportsServed } from './agents-service.ts';
import { ClassFiles } from './class-files.ts';
import { ClassFilesInDatabase } from './class-files-in-database.ts';
import { ClassFilesOnDisk } from './class-files-on-disk.ts';
import { registerClassFileRoutes } from './class-files-routes.ts';
import { IntakeCredentials } from './credentials.ts';
import { removePartialUploads } from './leftovers.ts';
import { IntakeRepository } from './repository.ts';
import { intakeRoutes } from './routes.ts';
import { StoredUploads } from './stored-uploads.ts';
import { UploadAdmission } from './upload-admission.ts';
import { UploadParsers } from './upload-parsers.ts';
import { registerUploadRoute } from './upload-route.ts';
import { type UploadStorage, UploadStore } from './upload-store.ts';
import { UploadsService } from './uploads-service.ts';

export type { ClassSet, StoredClass } from './class-files.ts';
export { classIdsByName } from './class-files.ts';
export { foreignClassesReason } from './exec-upload.ts';
export type { UploadRow } from './repository.ts';
export type { StoredUploads } from './stored-uploads.ts';

/** Class files kept where uploads are (ADR 0006): the data folder, or the database. */
export function classFilesIn(repository: IntakeRepository, dataDir: string, storage: UploadStorage): ClassFiles {
  return new ClassFiles(storage === 'database' ? new ClassFilesInDatabase(repository) : new ClassFilesOnDisk(dataDir));
}

/** The kept uploads and class files, for the report pipeline. */
export function createStoredUploads(db: Db, apps: AppsService, config: ReportConfig): StoredUploads {
  const repository = new IntakeRepository(db, (teamIds) => apps.idsOfTeams(teamIds));
  return new StoredUploads(
    repository,
    new UploadStore(repository, config.dataDir, config.uploadStorage),
    classFilesIn(repository, config.dataDir, config.uploadStorage),
  );
}

export type IntakeDeps = {
  /** The teams a user belongs to (team members belong to the teams module). */
  teamIdsOf: (userId: string) => Promise<Set<string>>;
  /** The reports an agent's coverage feeds (the reports module's ServedReports). */
  reportsServed: ReportsServed;
  apps: AppsService;
};

/** Coverage uploads, agent heart-beats and the agents list (issue 6). */
export function registerCoverageIntake(app: FastifyInstance, db: Db, config: ReportConfig, deps: IntakeDeps): void {
  const { apps } = deps;
  const repository = new IntakeRepository(db, (teamIds) => apps.idsOfTeams(teamIds));
  const credentials = new IntakeCredentials(apps, deps.teamIdsOf, (token) => app.principalOf(token));
  const parsers = new UploadParsers(config.uploadParsers, config.uploadParseMemoryMb);
  const store = new UploadStore(repository, config.dataDir, config.uploadStorage);
  const classFiles = classFilesIn(repository, config.dataDir, config.uploadStorage);
  const uploads = new UploadsService(repository, config, parsers, store, classFiles);
  const admission = new UploadAdmission(config.uploadParsers + config.uploadQueue);
  app.addHook('onReady', async () => {
    await classFiles.removeLeftovers();
    const removed = await removePartialUploads(config.dataDir);
    if (removed.length > 0) app.log.info({ removed }, 'removed partial uploads left by an earlier run');
  });
  app.addHook('onClose', () => parsers.close());
  registerUploadRoute(app, { credentials, uploads, admission, config });
  registerClassFileRoutes(app, { credentials, store: classFiles, admission, config });
  intakeRoutes(app, {
    credentials,
    uploads,
    agents: new AgentsService(repository, app.messages, deps.reportsServed),
    apps,
    teamIdsOf: deps.teamIdsOf,
  });
}

export type { IntakeScope } from './activity-reads.ts';

/** Uploads per day and the agents' heart-beats, for the analytics screens (issue 35). */
export const intakeActivityReads = (db: Db) => new IntakeActivityReads(db);
