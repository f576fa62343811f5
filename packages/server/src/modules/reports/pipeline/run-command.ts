import { startProgram } from '@sextant/coverage/node';

export type CommandResult = { code: number | null; stdout: string; output: string; timedOut: boolean };

/** Git never asks for credentials and never pages; a pipeline step has no terminal to answer it. */
export const PIPELINE_GIT_ENV = {
  ...process.env,
  GIT_TERMINAL_PROMPT: '0',
  GIT_PAGER: 'cat',
  GIT_ASKPASS: 'true',
  GIT_SSH_COMMAND: 'ssh -o BatchMode=yes -o ConnectTimeout=15',
};

const TAIL_BYTES = 64 * 1024;

/**
 * Runs a program with an argument array (never a shell, unless the program is `sh` itself) in its
 * own process group, so a timeout or an abort kills what it started too (a build's children).
 * Keeps stdout whole when asked and the last 64 KB of stdout+stderr interleaved for error reports.
 */
export function runCommand(
  program: string,
  args: readonly string[],
  opts: {
    cwd?: string;
    env?: NodeJS.ProcessEnv;
    timeoutMs: number;
    signal?: AbortSignal;
    keepStdout?: boolean;
    stdin?: string;
    /** Called with the pid (and so the process group id) once the program runs. */
    onSpawn?: (pid: number) => void;
  },
): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = startProgram(program, args, {
      cwd: opts.cwd,
      env: opts.env ?? PIPELINE_GIT_ENV,
      detached: true,
      stdin: opts.stdin === undefined ? 'ignore' : 'pipe',
    });
    const stdout: Buffer[] = [];
    let tail = '';
    let timedOut = false;
    const keep = (chunk: Buffer) => {
      tail = (tail + chunk.toString('utf8')).slice(-TAIL_BYTES);
    };
    child.stdout?.on('data', (chunk: Buffer) => {
      if (opts.keepStdout) stdout.push(chunk);
      keep(chunk);
    });
    child.stderr?.on('data', keep);
    const killGroup = () => child.kill('SIGKILL', true);
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, opts.timeoutMs);
    const onAbort = () => killGroup();
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    if (opts.signal?.aborted) killGroup();
    if (opts.stdin !== undefined) child.stdin?.end(opts.stdin);
    child.once('spawn', () => {
      if (child.pid) opts.onSpawn?.(child.pid);
    });
    child.on('error', (error: Error) => {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      reject(error);
    });
    child.on('close', (code: number | null) => {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      resolve({ code, stdout: Buffer.concat(stdout).toString('utf8'), output: tail, timedOut });
    });
  });
}

/** The last meaningful lines of a command's output, for a failure message a user can act on. */
export function lastLines(output: string, count: number): string {
  return output
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line !== '')
    .slice(-count)
    .join('\n');
}
