import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import {
  type ClassFilesResult,
  ClassFilesResultSchema,
  type ClassSetResult,
  ClassSetResultSchema,
  PATHS,
} from '@sextant/api';
import { classFilesAt, execToXml, writeClassTar } from '@sextant/coverage/node';
import { post, type Server } from '../http.ts';
import { dumpJacocoAgent, type JacocoAddress } from '../jacoco/tcp-dump.ts';
import type { CommandIo } from '../usage.ts';
import { describeUpload, type UploadMeta, uploadFile } from './upload.ts';

/** A JaCoCo agent in tcpserver mode that `sextant agent --jacoco` dumps each round. */
export type JacocoSource = {
  address: JacocoAddress;
  /** The running app's class files (a folder or a jar): JaCoCo's report needs the same bytes. */
  classes: string;
  /** Where JaCoCo's Ant task lives (default Debian's /usr/share/java), for `convert: 'local'`. */
  lib?: string;
  /**
   * 'server' (default): the dump is uploaded as exec data and the class files sent once per commit;
   * the server merges exec data of every agent probe by probe and runs JaCoCo's report (issue 38).
   * 'local': JaCoCo's report runs here and its XML is uploaded (no exact merge across agents).
   */
  convert: 'server' | 'local';
};

/** What a JaCoCo source has had accepted: the last dump's fingerprint, the commit whose class list the server has. */
export type JacocoSent = { fingerprint: string | null; classesOf: string | null };

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/**
 * Makes sure the server has the class files of `commit`: their list (name, sha256) first; the
 * contents it lacks go as one gzipped tar, then the list again. A restarted agent sends the list only.
 */
export async function ensureClassFiles(
  server: Server,
  app: string,
  commit: string,
  classes: string,
): Promise<ClassSetResult> {
  const files = await classFilesAt(classes);
  if (files.length === 0) throw new Error(`--classes ${classes}: no class files there`);
  const list = files.map((file) => ({ name: file.name, sha256: sha256(file.bytes) }));
  const record = () => post(server, PATHS.classSets, { json: { app, commit, classes: list } }, ClassSetResultSchema);
  const first = await record();
  if (first.recorded) return first;
  const wanted = new Set(first.missing);
  // Each missing content once, whichever class names it first.
  const sending = files.filter((_file, i) => wanted.delete((list[i] as { sha256: string }).sha256));
  const stream = Readable.from([writeClassTar(sending)]).pipe(createGzip());
  const stored: ClassFilesResult = await post(
    server,
    PATHS.classFiles,
    { stream, contentType: 'application/gzip' },
    ClassFilesResultSchema,
    { app },
  );
  const again = await record();
  if (!again.recorded) {
    throw new Error(`the server stored ${stored.stored} class files but still misses ${again.missing.length}`);
  }
  return again;
}

/**
 * Dumps the agent and, when its coverage grew since the last accepted upload (or the JVM
 * restarted with other coverage), sends it: as exec data beside the commit's class files, or
 * (convert 'local') as JaCoCo XML made here by JaCoCo's own report task.
 */
export async function sendJacocoDump(
  source: JacocoSource,
  server: Server,
  meta: UploadMeta,
  sent: JacocoSent,
  io: CommandIo,
): Promise<JacocoSent> {
  const dump = await dumpJacocoAgent(source.address, { signal: io.signal });
  if (dump.classes === 0 || dump.fingerprint === sent.fingerprint) return sent;
  const { host, port } = source.address;
  const workDir = await mkdtemp(join(tmpdir(), 'sextant-jacoco-'));
  try {
    let classesOf = sent.classesOf;
    let upload: string;
    if (source.convert === 'local') {
      upload = await execToXml({
        exec: dump.exec,
        classes: source.classes,
        name: meta.app,
        workDir,
        jacocoLib: source.lib,
      });
    } else {
      if (classesOf !== meta.commit) {
        const list = await ensureClassFiles(server, meta.app, meta.commit, source.classes);
        io.stdout(`class files of ${meta.commit}: ${list.classes} recorded\n`);
        classesOf = meta.commit;
      }
      upload = join(workDir, 'jacoco.exec');
      await writeFile(upload, dump.exec);
    }
    const format = source.convert === 'local' ? 'jacoco' : 'jacoco-exec';
    const result = await uploadFile(server, { ...meta, format }, upload);
    io.stdout(describeUpload(`JaCoCo agent ${host}:${port} (${dump.classes} classes)`, result));
    return { fingerprint: dump.fingerprint, classesOf };
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}
