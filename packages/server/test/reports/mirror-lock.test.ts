import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { withMirrorLock } from '../../src/modules/reports/pipeline/mirror-lock.ts';

const folder = mkdtempSync(join(tmpdir(), 'sx-mirror-lock-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('the mirror lock shared by processes on one data folder', () => {
  it('runs one holder at a time and removes the lock file after each', async () => {
    const dir = join(folder, 'one.git');
    const events: string[] = [];
    let release: () => void = () => {};
    const first = withMirrorLock(dir, 60_000, async () => {
      events.push('first in');
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      events.push('first out');
    });
    while (events.length === 0) await new Promise((resolve) => setImmediate(resolve));
    // The second, started once the first holds the lock, waits on the file, not on the first's
    // promise (as another process would).
    const second = withMirrorLock(dir, 60_000, async () => {
      events.push('second in');
      return 42;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(events).toEqual(['first in']);
    expect(existsSync(`${dir}.lock`)).toBe(true);
    release();
    await first;
    expect(await second).toBe(42);
    expect(events).toEqual(['first in', 'first out', 'second in']);
    expect(existsSync(`${dir}.lock`)).toBe(false);
  });

  it('takes over at once a lock whose holder on this host is gone (a SIGKILLed worker)', async () => {
    const dir = join(folder, 'killed.git');
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    writeFileSync(`${dir}.lock`, `${hostname()} ${gone.stdout}\n`);
    const started = Date.now();
    expect(await withMirrorLock(dir, 60_000, async () => 'taken')).toBe('taken');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('waits for a live holder of another host until the lock is older than staleMs', async () => {
    const dir = join(folder, 'other-host.git');
    writeFileSync(`${dir}.lock`, 'another-host 1\n');
    const started = Date.now();
    expect(await withMirrorLock(dir, 400, async () => 'taken')).toBe('taken');
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
  });
});
