import { execFile } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';
import { baseUrl } from './browser.ts';

const root = new URL('../..', import.meta.url).pathname;

/**
 * Runs the README's second step, `npm run demo`, against this run's server with the generated admin
 * password, plus `args`; resolves with what it printed.
 */
export function runDemo(args: string[] = []): Promise<string> {
  const command = ['run', '--silent', 'demo', '--', '--server', baseUrl(), '--password', inject('adminPassword')];
  return new Promise((resolve, reject) => {
    execFile(
      'npm',
      [...command, ...args],
      { cwd: root, encoding: 'utf8', timeout: 600_000 },
      (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout)),
    );
  });
}

/** Where the run's one demo workspace keeps its repositories (made by the global setup, removed after the run). */
export const demoReposDir = () => join(inject('demoDir'), 'repos');

/**
 * The demo workspace the suites share: the first suite that needs it runs `npm run demo` (the files
 * run one after another against one server), the others read what that run printed. A second run
 * only re-checks what is there (demo.e2e.ts proves it), so each suite loading its own cost a minute
 * of CI for nothing.
 */
export async function demoWorkspace(): Promise<string> {
  const printed = join(inject('demoDir'), 'first-run.txt');
  if (existsSync(printed)) return readFileSync(printed, 'utf8');
  const output = await runDemo(['--repos-dir', demoReposDir()]);
  writeFileSync(printed, output);
  return output;
}
