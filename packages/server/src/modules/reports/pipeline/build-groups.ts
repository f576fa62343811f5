import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Builds that outlive a crashed server (issue 32, finding 9). Each running build's process group is
 * recorded under `<data>/builds/` with the server process that started it; at start a server kills
 * the groups of servers that are gone (a kill -9 never ran their abort handlers) and removes their
 * build folders. Records hold start times from /proc, so a reused pid is never taken for one of ours.
 */
type BuildRecord = {
  pgid: number;
  pgidStart: number | null;
  server: number;
  serverStart: number | null;
  buildRoot: string;
};

function recordsDir(dataDir: string): string {
  return join(dataDir, 'builds');
}

/** Field 22 of /proc/<pid>/stat: when the process started, in clock ticks after boot; null when gone. */
export function processStart(pid: number): number | null {
  const fields = statFields(pid);
  return fields ? Number(fields[19]) : null;
}

// The fields after "pid (comm)", which may itself hold spaces and parentheses.
function statFields(pid: number | string): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** Pids of the processes of group `pgid` that are still running (zombies are dead already). */
export function liveMembers(pgid: number): number[] {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  return pids
    .filter((pid) => {
      const fields = statFields(pid);
      return fields !== null && fields[0] !== 'Z' && Number(fields[2]) === pgid;
    })
    .map(Number);
}

export async function recordBuild(dataDir: string, pgid: number, buildRoot: string): Promise<string> {
  const record: BuildRecord = {
    pgid,
    pgidStart: processStart(pgid),
    server: process.pid,
    serverStart: processStart(process.pid),
    buildRoot,
  };
  await mkdir(recordsDir(dataDir), { recursive: true, mode: 0o700 });
  const file = join(recordsDir(dataDir), `${pgid}.json`);
  // Written whole, then renamed: a reader (another server's start, a test) never sees half a record.
  const partial = `${file}.partial`;
  await writeFile(partial, JSON.stringify(record), { mode: 0o600 });
  await rename(partial, file);
  return file;
}

export async function forgetBuild(file: string): Promise<void> {
  await rm(file, { force: true });
}

/** Kills and removes what crashed servers' builds left; returns the process groups it killed. */
export async function reapLeftoverBuilds(dataDir: string): Promise<number[]> {
  const dir = recordsDir(dataDir);
  const names = await readdir(dir).catch(() => [] as string[]);
  const killed: number[] = [];
  for (const name of names.filter((n) => n.endsWith('.json'))) {
    const file = join(dir, name);
    let record: BuildRecord;
    try {
      record = JSON.parse(await readFile(file, 'utf8')) as BuildRecord;
    } catch {
      await rm(file, { force: true });
      continue;
    }
    const serverAlive = record.server !== process.pid && isSameProcess(record.server, record.serverStart);
    if (serverAlive) continue;
    if (isOurGroup(record)) {
      try {
        process.kill(-record.pgid, 'SIGKILL');
        killed.push(record.pgid);
      } catch {
        // gone meanwhile
      }
    }
    await rm(record.buildRoot, { recursive: true, force: true });
    await rm(file, { force: true });
  }
  return killed;
}

function isSameProcess(pid: number, start: number | null): boolean {
  return start !== null && processStart(pid) === start;
}

/**
 * The group still runs our build when its leader is the process we recorded, or, the leader gone,
 * members remain: Linux never gives a pid to a new process while a group of that id exists.
 */
function isOurGroup(record: BuildRecord): boolean {
  const leaderStart = processStart(record.pgid);
  if (leaderStart !== null) return leaderStart === record.pgidStart && liveMembers(record.pgid).length > 0;
  return liveMembers(record.pgid).length > 0;
}
