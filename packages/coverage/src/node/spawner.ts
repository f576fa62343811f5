import { type ChildProcess, fork, spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { closeSync, openSync } from 'node:fs';
import { PassThrough, type Readable, Writable } from 'node:stream';

/**
 * Where a started program's output goes: a pipe to this process, nowhere, or a file (opened for
 * writing, truncated) — a large answer into a file never waits for a busy event loop to drain a pipe.
 */
export type OutputTarget = 'pipe' | 'ignore' | { file: string };

export type ProgramOptions = {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** In a process group of its own, so `kill(signal, true)` ends what it started too. */
  detached?: boolean;
  stdin?: 'pipe' | 'ignore';
  stdout?: OutputTarget;
  stderr?: 'pipe' | 'ignore';
};

/**
 * A started program, as `child_process.spawn` gives it or through the spawn helper. Events: `spawn`,
 * `error` (it could not start, or the helper went away), `close` (code, signal) once its output ended.
 */
export interface Program extends EventEmitter {
  readonly pid: number | undefined;
  readonly stdin: Writable | null;
  readonly stdout: Readable | null;
  readonly stderr: Readable | null;
  /** Sends `signal`; with `group`, to its process group (a detached program and its children). */
  kill(signal: NodeJS.Signals, group?: boolean): void;
  /**
   * Stops reading its output and sends `signal` (as `execFile`'s timeout does): `close` then follows its
   * exit even while a child of it (git's remote helper) still holds the pipes open.
   */
  abandon(signal: NodeJS.Signals): void;
}

/** Starts a program (never through a shell): in this process, or through the spawn helper once `useSpawnHelper` ran. */
export function startProgram(command: string, args: readonly string[], options: ProgramOptions = {}): Program {
  return helper ? helper.start(command, args, options) : startHere(command, args, options);
}

function startHere(command: string, args: readonly string[], options: ProgramOptions): Program {
  const out = typeof options.stdout === 'object' ? openSync(options.stdout.file, 'w') : (options.stdout ?? 'pipe');
  let child: ChildProcess;
  try {
    child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      detached: options.detached ?? false,
      stdio: [options.stdin ?? 'ignore', out, options.stderr ?? 'pipe'],
    });
  } finally {
    if (typeof out === 'number') closeSync(out);
  }
  child.stdin?.on('error', () => undefined);
  const killChild = child.kill.bind(child);
  return Object.assign(child, {
    kill(signal: NodeJS.Signals, group = false) {
      try {
        if (group && options.detached && child.pid) process.kill(-child.pid, signal);
        else killChild(signal);
      } catch {
        // already gone
      }
      return true;
    },
    abandon(signal: NodeJS.Signals) {
      child.stdout?.destroy();
      child.stderr?.destroy();
      killChild(signal);
    },
  }) as unknown as Program;
}

type HelperMessage =
  | { type: 'spawned'; id: number; pid: number }
  | { type: 'data'; id: number; fd: 1 | 2; data: Uint8Array }
  | { type: 'error'; id: number; message: string; code: string | null }
  | { type: 'close'; id: number; code: number | null; signal: NodeJS.Signals | null };

class HelperProgram extends EventEmitter implements Program {
  pid: number | undefined = undefined;
  readonly stdin: Writable | null;
  readonly stdout: PassThrough | null;
  readonly stderr: PassThrough | null;

  constructor(
    private readonly id: number,
    private readonly post: (message: object) => void,
    options: ProgramOptions,
  ) {
    super();
    this.stdout = options.stdout === 'pipe' || options.stdout === undefined ? new PassThrough() : null;
    this.stderr = (options.stderr ?? 'pipe') === 'pipe' ? new PassThrough() : null;
    this.stdin =
      options.stdin === 'pipe'
        ? new Writable({
            write: (chunk: Buffer, _encoding, done) => {
              post({ type: 'stdin', id, data: chunk });
              done();
            },
            final: (done) => {
              post({ type: 'stdin-end', id });
              done();
            },
          })
        : null;
  }

  kill(signal: NodeJS.Signals, group = false): void {
    this.post({ type: 'kill', id: this.id, signal, group });
  }

  abandon(signal: NodeJS.Signals): void {
    this.post({ type: 'kill', id: this.id, signal, group: false, abandon: true });
  }

  receive(message: HelperMessage): void {
    if (message.type === 'spawned') {
      this.pid = message.pid;
      this.emit('spawn');
    } else if (message.type === 'data') {
      const data = Buffer.from(message.data.buffer, message.data.byteOffset, message.data.byteLength);
      (message.fd === 1 ? this.stdout : this.stderr)?.write(data);
    } else if (message.type === 'error') {
      this.end();
      this.emit('error', Object.assign(new Error(message.message), { code: message.code ?? undefined }));
    } else {
      this.end();
      // After the streams' own ends, as a ChildProcess's `close` comes after its stdio closed.
      setImmediate(() => this.emit('close', message.code, message.signal));
    }
  }

  private end(): void {
    this.stdout?.end();
    this.stderr?.end();
  }
}

/** The forked helper (spawn-helper.mjs) and the programs it runs for this process. */
class SpawnHelper {
  private readonly programs = new Map<number, HelperProgram>();
  private nextId = 1;

  constructor(private readonly child: ChildProcess) {
    child.on('message', (message: HelperMessage) => {
      const program = this.programs.get(message.id);
      if (!program) return;
      if (message.type === 'error' || message.type === 'close') this.forget(message.id);
      program.receive(message);
    });
    child.once('exit', () => {
      if (helper === this) helper = null;
      for (const [id, program] of this.programs) {
        this.forget(id);
        program.receive({ type: 'error', id, message: 'the spawn helper process ended', code: null });
      }
    });
    this.idle();
  }

  start(command: string, args: readonly string[], options: ProgramOptions): Program {
    const id = this.nextId++;
    const program = new HelperProgram(id, (message) => this.post(message), options);
    this.programs.set(id, program);
    this.busy();
    this.post({
      type: 'spawn',
      id,
      command,
      args,
      cwd: options.cwd,
      env: options.env ?? process.env,
      detached: options.detached ?? false,
      stdin: options.stdin ?? 'ignore',
      stdout: options.stdout ?? 'pipe',
      stderr: options.stderr ?? 'pipe',
    });
    return program;
  }

  stop(): void {
    this.child.disconnect();
  }

  private post(message: object): void {
    if (this.child.connected) this.child.send(message);
  }

  private forget(id: number): void {
    this.programs.delete(id);
    if (this.programs.size === 0) this.idle();
  }

  /** The helper keeps this process alive only while a program of it runs. */
  private busy(): void {
    this.child.ref();
    (this.child.channel as { ref?: () => void } | undefined)?.ref?.();
  }

  private idle(): void {
    this.child.unref();
    (this.child.channel as { unref?: () => void } | undefined)?.unref?.();
  }
}

let helper: SpawnHelper | null = null;

/**
 * From now on this process starts programs through a helper process forked now (call it early, while
 * the process is small; a long-running server does). Idempotent; a helper that died is forked again
 * on the next call.
 */
export async function useSpawnHelper(): Promise<void> {
  if (helper) return;
  const child = fork(new URL('./spawn-helper.mjs', import.meta.url).pathname, [], {
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    execArgv: [],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', reject);
  });
  helper = new SpawnHelper(child);
}

/** Back to spawning in this process; the helper ends. */
export function stopSpawnHelper(): void {
  helper?.stop();
  helper = null;
}

export type ExecResult = {
  /** The exit code; null when it was ended by a signal (a timeout, an abort, `maxBuffer`). */
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Why this process ended it, if it did. */
  ended: 'timeout' | 'aborted' | 'maxBuffer' | null;
};

/**
 * Runs a program to its end (as `execFile`, through `startProgram`): its stdout and stderr as text,
 * `input` written to its stdin. A `timeout`, an aborted `signal` or more than `maxBuffer` bytes of
 * output end it with SIGTERM. Rejects only when it could not start.
 */
export function execProgram(
  command: string,
  args: readonly string[],
  opts: {
    cwd?: string;
    env?: NodeJS.ProcessEnv;
    timeout?: number;
    signal?: AbortSignal;
    maxBuffer?: number;
    input?: string;
  } = {},
): Promise<ExecResult> {
  return new Promise((resolve, reject) => {
    const program = startProgram(command, args, {
      cwd: opts.cwd,
      env: opts.env,
      stdin: opts.input === undefined ? 'ignore' : 'pipe',
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let size = 0;
    let ended: ExecResult['ended'] = null;
    const end = (why: NonNullable<ExecResult['ended']>) => {
      ended ??= why;
      program.abandon('SIGTERM');
    };
    const collect = (into: Buffer[]) => (chunk: Buffer) => {
      size += chunk.length;
      if (opts.maxBuffer !== undefined && size > opts.maxBuffer) end('maxBuffer');
      else into.push(chunk);
    };
    program.stdout?.on('data', collect(out));
    program.stderr?.on('data', collect(err));
    const timer = opts.timeout ? setTimeout(() => end('timeout'), opts.timeout) : null;
    const onAbort = () => end('aborted');
    if (opts.signal?.aborted) onAbort();
    else opts.signal?.addEventListener('abort', onAbort, { once: true });
    const settle = () => {
      if (timer) clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
    };
    program.on('error', (error: Error) => {
      settle();
      reject(error);
    });
    program.on('close', (code: number | null, signal: NodeJS.Signals | null) => {
      settle();
      resolve({
        code,
        signal,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        ended,
      });
    });
    if (opts.input !== undefined) program.stdin?.end(opts.input);
  });
}
