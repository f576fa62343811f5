import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BuildSettings } from '../../../lib/data-paths.ts';
import { buildEnvironment } from './build-environment.ts';
import { forgetBuild, recordBuild } from './build-groups.ts';
import { buildSandbox, keepPrivate, sandboxedCommand } from './build-sandbox.ts';
import { exportTree } from './mirror.ts';
import { lastLines, runCommand } from './run-command.ts';
import { maskSecrets } from './secret-mask.ts';
import { StepFailure } from './step-failure.ts';

/**
 * The COMPILING step: the app's build command, run by `sh -c` in a fresh export of the new commit
 * (not in the mirror, which other reports read at the same time). The command is what an
 * administrator registered, but what it runs comes from the repository: it runs sandboxed, with an
 * environment of its own and without the data folder (issue 32), like a CI job on a shared runner.
 * A non-zero exit or a timeout is COMPILE_FAIL with the last lines of its output, secrets masked.
 */
export async function compile(input: {
  mirror: string;
  commit: string;
  buildCommand: string;
  build: BuildSettings;
  dataDir: string;
  gitTimeoutMs: number;
  timeoutMs: number;
  signal: AbortSignal;
}): Promise<void> {
  const sandbox = await buildSandbox(input.build.sandbox, input.build.user);
  if (sandbox.kind === 'refused') throw new StepFailure('COMPILE_FAIL', `not built: ${sandbox.reason}`);
  if (sandbox.kind === 'user') await keepPrivate(input.dataDir);
  const buildRoot = await mkdtemp(join(tmpdir(), 'sextant-build-'));
  const tree = join(buildRoot, 'src');
  const home = join(buildRoot, 'home');
  const tmp = join(buildRoot, 'tmp');
  let recorded: Promise<string> | null = null;
  try {
    await exportTree(input.mirror, input.commit, tree, { timeoutMs: input.gitTimeoutMs, signal: input.signal });
    await Promise.all([mkdir(home), mkdir(tmp)]);
    const user = sandbox.kind === 'off' ? null : sandbox.user;
    if (user) {
      const owned = await runCommand('chown', ['-R', '--', `${user.uid}:${user.gid}`, buildRoot], {
        timeoutMs: input.gitTimeoutMs,
        signal: input.signal,
      });
      if (owned.code !== 0)
        throw new Error(`cannot hand the build folder to ${user.name}: ${lastLines(owned.output, 3)}`);
    }
    const { program, args } = sandboxedCommand(sandbox, {
      command: input.buildCommand,
      cwd: tree,
      buildRoot,
      hidden: [input.dataDir],
    });
    const result = await runCommand(program, args, {
      cwd: tree,
      env: buildEnvironment({ home, tmp, pass: input.build.envPass }),
      timeoutMs: input.timeoutMs,
      signal: input.signal,
      onSpawn: (pid) => {
        recorded = recordBuild(input.dataDir, pid, buildRoot);
      },
    });
    if (input.signal.aborted) throw input.signal.reason ?? new Error('aborted');
    const tail = lastLines(maskSecrets(result.output, input.build.secrets), 20);
    if (result.timedOut) {
      throw new StepFailure(
        'COMPILE_FAIL',
        `the build command did not finish within ${Math.round(input.timeoutMs / 1000)} s\n${tail}`,
      );
    }
    if (result.code !== 0) {
      throw new StepFailure(
        'COMPILE_FAIL',
        `the build command exited with ${result.code ?? 'a signal'}${tail ? `:\n${tail}` : ''}`,
      );
    }
  } finally {
    await rm(buildRoot, { recursive: true, force: true });
    const record = await (recorded as Promise<string> | null)?.catch(() => null);
    if (record) await forgetBuild(record);
  }
}
