import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../src/run.ts';

// Issue 7: `sextant --help` and every subcommand's help are complete. Complete means: every option a
// command's argument parser accepts is named in its help, so a new option cannot ship undocumented.
async function run(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    cwd: process.cwd(),
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    colour: false,
  });
  return { code, stdout, stderr };
}

/** The option names in a command's parseArgs({ options: { ... } }) block. */
function parsedOptions(command: string): string[] {
  const source = readFileSync(join(import.meta.dirname, '../src/commands', `${command}.ts`), 'utf8');
  const block = /options:\s*\{([\s\S]*?)\n\s{4}\},?\n/.exec(source)?.[1] ?? '';
  return [...block.matchAll(/^\s*'?([a-z][a-z-]*)'?:\s*\{\s*type:/gm)].map((m) => m[1] as string);
}

const COMMANDS = ['coverage', 'upload', 'agent', 'demo'];

describe('help', () => {
  it('lists every command with what it does', async () => {
    const { code, stdout } = await run(['--help']);
    expect(code).toBe(0);
    for (const command of COMMANDS) expect(stdout).toMatch(new RegExp(`^  ${command}\\s+\\S`, 'm'));
  });

  it.each(COMMANDS)('%s --help names every option the command accepts', async (command) => {
    const options = parsedOptions(command).filter((o) => o !== 'help');
    expect(options.length).toBeGreaterThan(2);
    const { code, stdout } = await run([command, '--help']);
    expect(code).toBe(0);
    expect(stdout.split('\n')[0]).toContain(`sextant ${command}`);
    for (const option of options) expect(stdout, `--${option}`).toContain(`--${option}`);
  });

  it('answers an unknown command with the usage and exit 1', async () => {
    const { code, stderr } = await run(['cover']);
    expect(code).toBe(1);
    expect(stderr).toContain('unknown command "cover"');
  });
});
