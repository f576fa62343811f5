import { execFile } from 'node:child_process';
import { inject } from 'vitest';
import { baseUrl } from './browser.ts';

const root = new URL('../..', import.meta.url).pathname;

/**
 * Runs the README's second step, `npm run demo`, against this run's server with the generated admin
 * password, plus `args` (each suite gives its own `--repos-dir`); resolves with what it printed.
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
