import { stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { relative } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { AgentBeatAnswerSchema, PATHS } from '@sextant/api';
import { resolveCommit } from '@sextant/coverage/node';
import cliPackage from '../../package.json' with { type: 'json' };
import { reportFoldersOf } from '../base-dir.ts';
import { findFiles } from '../glob.ts';
import { post, type Server } from '../http.ts';
import { parseJacocoAddress } from '../jacoco/tcp-dump.ts';
import { type CommandIo, UsageError } from '../usage.ts';
import { type JacocoSent, type JacocoSource, sendJacocoDump } from './agent-jacoco.ts';
import { baseDirOf, describeUpload, serverOf, testTypeOf, type UploadMeta, uploadFile } from './upload.ts';
import { AGENT_USAGE } from './usages.ts';

export { AGENT_USAGE };

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** `30s`, `5m`, `1h`, `500ms`; a bare number is seconds. */
export function parseInterval(raw: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(raw.trim());
  const ms = match ? Number(match[1]) * (UNITS[match[2] ?? 's'] ?? 1000) : Number.NaN;
  if (!Number.isFinite(ms) || ms < 100)
    throw new UsageError(`--interval wants a duration such as 30s or 5m, not "${raw}"`);
  return ms;
}

type AgentOptions = {
  server: Server;
  app: string;
  envType: string;
  agentId: string;
  watch: string[];
  jacoco: JacocoSource | null;
  intervalMs: number;
  commit: string | null;
  testType: '1' | '2';
  /** `--base-dir` as given; without it, the working directory's folder in its repository. */
  baseDir: string | undefined;
  once: boolean;
};

function parseAgentArgs(argv: readonly string[]): AgentOptions {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    options: {
      server: { type: 'string' },
      token: { type: 'string' },
      app: { type: 'string' },
      env: { type: 'string' },
      watch: { type: 'string', multiple: true },
      jacoco: { type: 'string' },
      classes: { type: 'string' },
      'jacoco-lib': { type: 'string' },
      'jacoco-convert': { type: 'string', default: 'server' },
      interval: { type: 'string', default: '30s' },
      'agent-id': { type: 'string' },
      commit: { type: 'string' },
      'test-type': { type: 'string' },
      'base-dir': { type: 'string' },
      once: { type: 'boolean', default: false },
    },
  });
  if (!values.app) throw new UsageError('--app is required');
  if (!values.env) throw new UsageError('--env is required');
  if (!values.watch?.length && !values.jacoco) {
    throw new UsageError('--watch GLOB (the coverage files to send) or --jacoco HOST:PORT is required');
  }
  if (values.jacoco && !values.classes) {
    throw new UsageError("--jacoco needs --classes DIR|JAR (the running app's class files)");
  }
  if (values.classes && !values.jacoco) throw new UsageError('--classes goes with --jacoco HOST:PORT');
  const convert = values['jacoco-convert'];
  if (convert !== 'server' && convert !== 'local') {
    throw new UsageError(`--jacoco-convert is server (send exec data and class files) or local, not "${convert}"`);
  }
  let jacoco: JacocoSource | null = null;
  if (values.jacoco && values.classes) {
    try {
      const address = parseJacocoAddress(values.jacoco);
      jacoco = { address, classes: values.classes, lib: values['jacoco-lib'], convert };
    } catch (error) {
      throw new UsageError(error instanceof Error ? error.message : String(error));
    }
  }
  return {
    server: serverOf(values),
    app: values.app,
    envType: values.env,
    agentId: values['agent-id'] ?? `${hostname()}-${values.env}`,
    watch: values.watch ?? [],
    jacoco,
    intervalMs: parseInterval(values.interval ?? '30s'),
    commit: values.commit ?? null,
    testType: testTypeOf(values['test-type'], '2'),
    baseDir: values['base-dir'],
    once: values.once ?? false,
  };
}

/** Stops the loop on SIGINT/SIGTERM (or the caller's signal, in tests); the listeners go with the loop. */
function stopSignal(io: CommandIo): { signal: AbortSignal; release: () => void } {
  if (io.signal) return { signal: io.signal, release: () => {} };
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return {
    signal: controller.signal,
    release: () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    },
  };
}

/** What the server has accepted so far: each file's version, and what of the JaCoCo agent. */
type Sent = { files: Map<string, string>; jacoco: JacocoSent };

/** The commit the agent's coverage is for: `--commit` as given, else the working directory's HEAD. */
async function commitOf(opts: AgentOptions, cwd: string): Promise<string> {
  if (opts.commit) return opts.commit;
  try {
    return await resolveCommit(cwd, 'HEAD');
  } catch {
    throw new Error(`no --commit given and ${cwd} is not a git checkout`);
  }
}

/**
 * Sends the watched files whose modification time or size changed since they were last accepted,
 * then the JaCoCo agent's dump if its coverage changed. What the server refuses (a half-written
 * file, say) is not marked as sent, so the next round tries it again. Each file goes with its own
 * folder in the repository (`--base-dir` for all when given), so the server places its paths by it.
 */
async function sendChanged(opts: AgentOptions, commit: string, sent: Sent, io: CommandIo): Promise<string[]> {
  const errors: string[] = [];
  const meta = (folder: string | null): UploadMeta => ({
    app: opts.app,
    commit,
    envType: opts.envType,
    testType: opts.testType,
    agentId: opts.agentId,
    ...(folder === null ? {} : { baseDir: folder }),
  });
  const files = [...new Set((await Promise.all(opts.watch.map((glob) => findFiles(glob, io.cwd)))).flat())].sort();
  const folders = await reportFoldersOf(opts.baseDir, io.cwd, files);
  for (const [i, file] of files.entries()) {
    const shown = relative(io.cwd, file) || file;
    try {
      const info = await stat(file);
      const version = `${info.mtimeMs}:${info.size}`;
      if (sent.files.get(file) === version) continue;
      io.stdout(describeUpload(shown, await uploadFile(opts.server, meta(folders[i] ?? null), file)));
      sent.files.set(file, version);
    } catch (error) {
      errors.push(`${shown}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (opts.jacoco) {
    try {
      const folder = await baseDirOf(opts.baseDir, io.cwd);
      sent.jacoco = await sendJacocoDump(opts.jacoco, opts.server, meta(folder), sent.jacoco, io);
    } catch (error) {
      errors.push(error instanceof Error ? error.message : String(error));
    }
  }
  return errors;
}

/** One round: the changed coverage sent, and the errors met (a commit that cannot be known is one). */
async function round(
  opts: AgentOptions,
  sent: Sent,
  io: CommandIo,
): Promise<{ commit: string | null; errors: string[] }> {
  let commit: string;
  try {
    commit = await commitOf(opts, io.cwd);
  } catch (error) {
    return { commit: null, errors: [error instanceof Error ? error.message : String(error)] };
  }
  return { commit, errors: await sendChanged(opts, commit, sent, io) };
}

/** `sextant agent`: each round sends changed coverage files, then a heart-beat saying how that went. */
export async function agentCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  const opts = parseAgentArgs(argv);
  const { signal, release } = stopSignal(io);
  const sent: Sent = { files: new Map(), jacoco: { fingerprint: null, classesOf: null } };
  const sources = [
    ...opts.watch,
    ...(opts.jacoco ? [`the JaCoCo agent at ${opts.jacoco.address.host}:${opts.jacoco.address.port}`] : []),
  ];
  io.stdout(
    `sextant agent ${opts.agentId}: ${opts.app} (${opts.envType}), watching ${sources.join(' ')}` +
      `${opts.once ? ' once' : ` every ${opts.intervalMs / 1000}s`}\n`,
  );
  try {
    for (;;) {
      const { commit, errors } = await round(opts, sent, { ...io, signal });
      if (signal.aborted) break;
      for (const error of errors) io.stderr(`sextant agent: ${error}\n`);
      let beatFailed = false;
      try {
        await post(
          opts.server,
          PATHS.agentHeartbeat,
          {
            json: {
              app: opts.app,
              agentId: opts.agentId,
              envType: opts.envType,
              status: errors.length === 0 ? 'HEART_BEAT_DONE' : 'HEART_BEAT_ERROR',
              ...(errors.length === 0 ? {} : { error: errors.join('; ').slice(0, 2000) }),
              version: cliPackage.version,
              ...(commit === null ? {} : { commit }),
              testType: Number(opts.testType),
            },
          },
          AgentBeatAnswerSchema,
        );
      } catch (error) {
        beatFailed = true;
        io.stderr(`sextant agent: heart-beat failed: ${error instanceof Error ? error.message : String(error)}\n`);
      }
      if (opts.once) return errors.length === 0 && !beatFailed ? 0 : 1;
      try {
        await sleep(opts.intervalMs, undefined, { signal });
      } catch {
        break;
      }
    }
    io.stdout(`sextant agent ${opts.agentId}: stopped\n`);
    return 0;
  } finally {
    release();
  }
}
