import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Server } from '../http.ts';
import { execToXml } from '../jacoco/exec-report.ts';
import { dumpJacocoAgent, type JacocoAddress } from '../jacoco/tcp-dump.ts';
import type { CommandIo } from '../usage.ts';
import { describeUpload, type UploadMeta, uploadFile } from './upload.ts';

/** A JaCoCo agent in tcpserver mode that `sextant agent --jacoco` dumps each round. */
export type JacocoSource = {
  address: JacocoAddress;
  /** The running app's class files (a folder or a jar): JaCoCo's report needs the same bytes. */
  classes: string;
  /** Where JaCoCo's Ant task lives (default Debian's /usr/share/java). */
  lib?: string;
};

/**
 * Dumps the agent and, when its coverage grew since the last accepted upload (or the JVM
 * restarted with other coverage), sends it as JaCoCo XML made by JaCoCo's own report task.
 * Answers the fingerprint now on the server.
 */
export async function sendJacocoDump(
  source: JacocoSource,
  server: Server,
  meta: UploadMeta,
  lastSent: string | null,
  io: CommandIo,
): Promise<string | null> {
  const dump = await dumpJacocoAgent(source.address, { signal: io.signal });
  if (dump.classes === 0 || dump.fingerprint === lastSent) return lastSent;
  const workDir = await mkdtemp(join(tmpdir(), 'sextant-jacoco-'));
  try {
    const xml = await execToXml({
      exec: dump.exec,
      classes: source.classes,
      name: meta.app,
      workDir,
      jacocoLib: source.lib,
    });
    const { host, port } = source.address;
    const result = await uploadFile(server, { ...meta, format: 'jacoco' }, xml);
    io.stdout(describeUpload(`JaCoCo agent ${host}:${port} (${dump.classes} classes)`, result));
    return dump.fingerprint;
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}
