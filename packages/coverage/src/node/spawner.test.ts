import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { execProgram, startProgram, stopSpawnHelper, useSpawnHelper } from './spawner.ts';

/** The parent pid of a running process, from /proc. */
function parentOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

/** A process's state letter from /proc (R, S, Z, …), or `gone`. */
function stateOf(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] as string;
  } catch {
    return 'gone';
  }
}

function closed(program: ReturnType<typeof startProgram>): Promise<{ code: number | null; signal: string | null }> {
  return new Promise((resolve, reject) => {
    program.on('error', reject);
    program.on('close', (code: number | null, signal: string | null) => resolve({ code, signal }));
  });
}

describe.each([
  ['in this process', false],
  ['through the spawn helper', true],
])('programs started %s', (_, helped) => {
  const dir = mkdtempSync(join(tmpdir(), 'sx-spawner-'));
  beforeAll(async () => {
    if (helped) await useSpawnHelper();
  });
  afterAll(() => {
    stopSpawnHelper();
    rmSync(dir, { recursive: true, force: true });
  });

  it('get their stdin, give their stdout and stderr and exit code, and have the expected parent', async () => {
    const program = startProgram('sh', ['-c', 'echo "ppid $PPID"; cat; echo oops >&2; exit 3'], { stdin: 'pipe' });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    program.stdout?.on('data', (chunk: Buffer) => out.push(chunk));
    program.stderr?.on('data', (chunk: Buffer) => err.push(chunk));
    program.stdin?.end('from stdin\n');
    expect(await closed(program)).toEqual({ code: 3, signal: null });
    const [first, second] = Buffer.concat(out).toString().split('\n');
    const parent = Number(first?.replace('ppid ', ''));
    if (helped) expect(parent).not.toBe(process.pid);
    else expect(parent).toBe(process.pid);
    expect(second).toBe('from stdin');
    expect(Buffer.concat(err).toString()).toBe('oops\n');
  });

  it('write stdout into a file when asked', async () => {
    const file = join(dir, `out-${helped}`);
    const program = startProgram('sh', ['-c', 'seq 1 100000'], { stdout: { file } });
    expect(program.stdout).toBeNull();
    expect((await closed(program)).code).toBe(0);
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(lines.length).toBe(100_000);
    expect(lines.at(-1)).toBe('100000');
  });

  it('end a detached program and its children with kill(signal, group)', async () => {
    const program = startProgram('sh', ['-c', 'sleep 30 & echo $!; wait'], { detached: true });
    const sleeper = await new Promise<number>((resolve) =>
      program.stdout?.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim()))),
    );
    expect(program.pid).toBeGreaterThan(0);
    if (helped) expect(parentOf(program.pid as number)).not.toBe(process.pid);
    program.kill('SIGKILL', true);
    expect((await closed(program)).signal).toBe('SIGKILL');
    // The group's SIGKILL is queued at once, but a busy machine may not have run the sleeper yet
    // to die of it (state R): wait for it to be gone, or a zombie its new parent has not reaped.
    await vi.waitFor(() => expect(stateOf(sleeper)).toMatch(/^(gone|Z)$/), { timeout: 10_000, interval: 20 });
  });

  it('execProgram: a timeout ends the program even while its child holds the pipes', async () => {
    const result = await execProgram('sh', ['-c', 'sleep 30 & sleep 30'], { timeout: 200 });
    expect(result.ended).toBe('timeout');
    expect(result.code).toBeNull();
  });

  it('execProgram: text in and out, and a missing program rejects', async () => {
    const result = await execProgram('cat', [], { input: 'héllo' });
    expect(result).toMatchObject({ code: 0, stdout: 'héllo', ended: null });
    await expect(execProgram('no-such-program-sextant', [])).rejects.toThrow(/ENOENT/);
  });
});

describe('the spawn helper', () => {
  it('fails the programs it runs when it goes away, and is forked again afterwards', async () => {
    await useSpawnHelper();
    const program = startProgram('sleep', ['30']);
    const ended = closed(program);
    await new Promise((resolve) => program.once('spawn', resolve));
    stopSpawnHelper();
    await expect(ended).rejects.toThrow('the spawn helper process ended');
    await useSpawnHelper();
    expect((await execProgram('true', [])).code).toBe(0);
    stopSpawnHelper();
  });
});
