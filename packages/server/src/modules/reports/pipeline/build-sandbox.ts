import { execFile } from 'node:child_process';
import { chmod, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** `SEXTANT_BUILD_SANDBOX`: auto picks the strongest that works here; off is an operator's explicit opt-out. */
export type BuildSandboxSetting = 'auto' | 'bwrap' | 'user' | 'off';

export type BuildUser = { name: string; uid: number; gid: number };

/**
 * How a build runs (issue 32, finding 1). `bwrap`: bubblewrap with the data folder, /tmp, the
 * server's home and working folder hidden under empty tmpfs, its own PID namespace (it cannot see the server's
 * /proc/<pid>/environ), killed with the server (--die-with-parent); when the server is root, also as
 * `user`. `user`: the server is root without bubblewrap, the build runs as an unprivileged user
 * (setpriv) and the data folder is mode 0700. `off`: as the server's own user (opted out). `refused`:
 * none of these works here, and builds end COMPILE_FAIL with `reason`.
 */
export type BuildSandbox =
  | { kind: 'bwrap'; user: BuildUser | null }
  | { kind: 'user'; user: BuildUser }
  | { kind: 'off' }
  | { kind: 'refused'; reason: string };

const detected = new Map<string, Promise<BuildSandbox>>();

/** The sandbox for this setting on this machine, probed once per process. */
export function buildSandbox(setting: BuildSandboxSetting, userName: string): Promise<BuildSandbox> {
  const key = `${setting}:${userName}`;
  let found = detected.get(key);
  if (!found) {
    found = detect(setting, userName);
    detected.set(key, found);
  }
  return found;
}

async function detect(setting: BuildSandboxSetting, userName: string): Promise<BuildSandbox> {
  if (setting === 'off') return { kind: 'off' };
  const isRoot = process.getuid?.() === 0;
  const user = isRoot ? await lookUpUser(userName) : null;
  const setprivWorks = isRoot && (await succeeds('setpriv', ['--version']));
  if (isRoot && (!user || user.uid === 0)) {
    return { kind: 'refused', reason: `the build user "${userName}" does not exist or is root (SEXTANT_BUILD_USER)` };
  }
  if (isRoot && !setprivWorks) return { kind: 'refused', reason: 'setpriv (util-linux) is missing' };
  if (setting !== 'user' && (await succeeds('bwrap', [...BWRAP_BASE, '--', 'true']))) {
    return { kind: 'bwrap', user };
  }
  if (setting !== 'bwrap' && user) return { kind: 'user', user };
  return {
    kind: 'refused',
    reason:
      setting === 'bwrap'
        ? 'bubblewrap (bwrap) does not work on this machine (SEXTANT_BUILD_SANDBOX=bwrap)'
        : 'build commands need a sandbox: install bubblewrap, or run the server as root so builds run as an unprivileged user; SEXTANT_BUILD_SANDBOX=off runs them unsandboxed',
  };
}

async function lookUpUser(name: string): Promise<BuildUser | null> {
  try {
    const uid = Number((await run('id', ['-u', '--', name])).stdout.trim());
    const gid = Number((await run('id', ['-g', '--', name])).stdout.trim());
    return Number.isInteger(uid) && Number.isInteger(gid) ? { name, uid, gid } : null;
  } catch {
    return null;
  }
}

async function succeeds(program: string, args: string[]): Promise<boolean> {
  try {
    await run(program, args, { timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
}

const BWRAP_BASE = [
  '--die-with-parent',
  '--new-session',
  '--unshare-pid',
  '--unshare-ipc',
  '--unshare-uts',
  '--ro-bind',
  '/',
  '/',
  '--dev',
  '/dev',
  '--proc',
  '/proc',
];

/**
 * The program and arguments that run `sh -c command` in `cwd` inside the sandbox. `buildRoot` (the
 * work tree, HOME and TMPDIR) is the only place it may write; `hidden` folders are covered by an
 * empty tmpfs.
 */
export function sandboxedCommand(
  sandbox: Exclude<BuildSandbox, { kind: 'refused' }>,
  opts: { command: string; cwd: string; buildRoot: string; hidden: readonly string[] },
): { program: string; args: string[] } {
  const shell = ['sh', '-c', opts.command];
  const user = sandbox.kind === 'off' ? null : sandbox.user;
  const asUser = user
    ? [
        'setpriv',
        `--reuid=${user.uid}`,
        `--regid=${user.gid}`,
        '--clear-groups',
        '--inh-caps=-all',
        '--bounding-set=-all',
        '--',
        ...shell,
      ]
    : shell;
  if (sandbox.kind !== 'bwrap') {
    const [program = 'sh', ...args] = asUser;
    return { program, args };
  }
  // Mounts apply in order: hide first, then bind the build's own folder back on top (it lies in /tmp).
  // The server's working folder too: an installation's .env file or scripts are no build's business.
  const hide = [...new Set(['/tmp', homedir(), process.cwd(), ...opts.hidden])].filter((folder) => folder !== '/');
  const args = [
    ...BWRAP_BASE,
    ...hide.flatMap((folder) => ['--tmpfs', folder]),
    '--bind',
    opts.buildRoot,
    opts.buildRoot,
    '--chdir',
    opts.cwd,
    '--',
    ...asUser,
  ];
  return { program: 'bwrap', args };
}

/**
 * A data folder others can list or read is made private (0700) before a build runs as another user
 * on the same machine: everything under it (secrets, database, uploads, mirrors) is then out of reach.
 */
export async function keepPrivate(dataDir: string): Promise<void> {
  const mode = (await stat(dataDir)).mode & 0o777;
  if ((mode & 0o077) !== 0) await chmod(dataDir, 0o700);
}
