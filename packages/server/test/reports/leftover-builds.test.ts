import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { liveMembers, reapLeftoverBuilds } from '../../src/modules/reports/pipeline/build-groups.ts';
import { fixtureRepo } from './pipeline-support.ts';

const ROOT = new URL('../../../../', import.meta.url).pathname;
const STARTER = new URL('./support/start-build.ts', import.meta.url).pathname;

async function until<T>(what: string, probe: () => T | undefined, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Pids of running (not zombie) processes whose command line is exactly `argv`. */
function running(argv: string[]): number[] {
  const wanted = `${argv.join('\0')}\0`;
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        const state = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0];
        return state !== 'Z' && readFileSync(`/proc/${pid}/cmdline`, 'utf8') === wanted;
      } catch {
        return false;
      }
    })
    .map(Number);
}

type Record = { pgid: number; buildRoot: string };

/** Issue 32, finding 9: a build must not outlive a server killed with SIGKILL. */
describe.each([['user'], ['auto']] as const)('a build whose server is killed (SEXTANT_BUILD_SANDBOX=%s)', (mode) => {
  const repo = fixtureRepo('jacoco');
  const dataDir = mkdtempSync(join(tmpdir(), 'sx-leftover-'));
  let server: ChildProcess | undefined;
  afterAll(async () => {
    server?.kill('SIGKILL');
    await rm(dirname(repo), { recursive: true, force: true });
    await rm(dataDir, { recursive: true, force: true });
  });

  it.runIf(mode === 'auto' || process.getuid?.() === 0)(
    'is gone once a server starts again',
    async () => {
      // A duration no other process uses, to find the build by its command line.
      const sleep = ['sleep', String(3000 + Math.floor(Math.random() * 1000))];
      const started = spawn(process.execPath, ['--import', 'tsx', STARTER, dataDir, repo, mode, sleep.join(' ')], {
        cwd: ROOT,
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      server = started;
      const exited = new Promise((resolve) => started.once('exit', resolve));
      const record = await until('the build to run', () => {
        // The record is written as `<pid>.json.partial`, then renamed: only a renamed one is whole.
        const files = existsSync(join(dataDir, 'builds'))
          ? readdirSync(join(dataDir, 'builds')).filter((name) => name.endsWith('.json'))
          : [];
        if (files.length !== 1 || running(sleep).length === 0) return undefined;
        return JSON.parse(readFileSync(join(dataDir, 'builds', files[0] as string), 'utf8')) as Record;
      });
      expect(liveMembers(record.pgid).length).toBeGreaterThan(0);
      expect(existsSync(record.buildRoot)).toBe(true);

      started.kill('SIGKILL');
      await exited;
      if (mode === 'user') {
        // Nothing else ends it: the abort handler that kills the group died with the server.
        expect(running(sleep).length).toBeGreaterThan(0);
        expect(await reapLeftoverBuilds(dataDir)).toEqual([record.pgid]);
      } else {
        // bubblewrap dies with its parent and takes its PID namespace, the build, with it.
        await until('bubblewrap to end the build', () => (running(sleep).length === 0 ? true : undefined));
        await reapLeftoverBuilds(dataDir);
      }
      await until('the build to end', () => (running(sleep).length === 0 ? true : undefined));
      expect(liveMembers(record.pgid)).toEqual([]);
      expect(existsSync(record.buildRoot)).toBe(false);
      expect(readdirSync(join(dataDir, 'builds'))).toEqual([]);
    },
    60_000,
  );
});
