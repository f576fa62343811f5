import { rm } from 'node:fs/promises';
import { exportTree } from './mirror.ts';
import { lastLines, runCommand } from './run-command.ts';
import { StepFailure } from './step-failure.ts';

/**
 * The COMPILING step: the app's build command, run by `sh -c` in a fresh export of the new commit
 * (not in the mirror, which other reports read at the same time). The command is what an
 * administrator registered for the app; it runs with the server's rights, like a CI job would.
 * A non-zero exit or a timeout is COMPILE_FAIL with the last lines of its output.
 */
export async function compile(input: {
  mirror: string;
  commit: string;
  buildCommand: string;
  workDir: string;
  gitTimeoutMs: number;
  timeoutMs: number;
  signal: AbortSignal;
}): Promise<void> {
  await rm(input.workDir, { recursive: true, force: true });
  try {
    await exportTree(input.mirror, input.commit, input.workDir, {
      timeoutMs: input.gitTimeoutMs,
      signal: input.signal,
    });
    const result = await runCommand('sh', ['-c', input.buildCommand], {
      cwd: input.workDir,
      env: { ...process.env, GIT_TERMINAL_PROMPT: '0', CI: 'true' },
      timeoutMs: input.timeoutMs,
      signal: input.signal,
    });
    if (input.signal.aborted) throw input.signal.reason ?? new Error('aborted');
    if (result.timedOut) {
      throw new StepFailure(
        'COMPILE_FAIL',
        `the build command did not finish within ${Math.round(input.timeoutMs / 1000)} s\n${lastLines(result.output, 20)}`,
      );
    }
    if (result.code !== 0) {
      const tail = lastLines(result.output, 20);
      throw new StepFailure(
        'COMPILE_FAIL',
        `the build command exited with ${result.code ?? 'a signal'}${tail ? `:\n${tail}` : ''}`,
      );
    }
  } finally {
    await rm(input.workDir, { recursive: true, force: true });
  }
}
