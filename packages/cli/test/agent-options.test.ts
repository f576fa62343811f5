import { describe, expect, it } from 'vitest';
import { parseInterval } from '../src/commands/agent.ts';
import { runCli } from '../src/run.ts';

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: { cwd: '/', stdout: (s: string) => out.push(s), stderr: (s: string) => err.push(s), colour: false },
    out,
    err,
  };
}

describe('sextant upload and agent options', () => {
  it('reads intervals with their unit, seconds without one', () => {
    expect(parseInterval('30s')).toBe(30_000);
    expect(parseInterval('5m')).toBe(300_000);
    expect(parseInterval('1h')).toBe(3_600_000);
    expect(parseInterval('250ms')).toBe(250);
    expect(parseInterval('2')).toBe(2000);
    for (const bad of ['', 'soon', '-1s', '10ms', '1d']) expect(() => parseInterval(bad)).toThrow(/--interval/);
  });

  it('--help lists every command', async () => {
    const run = io();
    expect(await runCli(['--help'], run.io)).toBe(0);
    const text = run.out.join('');
    expect(text).toContain('sextant coverage FILE...');
    expect(text).toContain(
      'sextant upload FILE... --server URL --token T --app NAME --commit SHA --env ENV --test-type 1|2',
    );
    expect(text).toContain('sextant agent --server URL --token T --app NAME --env ENV --watch GLOB...');
    const agentHelp = io();
    expect(await runCli(['agent', '--help'], agentHelp.io)).toBe(0);
    expect(agentHelp.out.join('')).toMatch(/^usage: sextant agent .*\[--interval 30s\]/);
  });

  it('refuses missing options in one line with the usage of that command', async () => {
    const agentBase = ['agent', '--server', 'http://x', '--token', 't', '--app', 'a', '--env', 'test'];
    const cases: [string[], string][] = [
      [
        ['upload', 'x.xml', '--token', 't', '--app', 'a', '--commit', 'c', '--env', 'e', '--test-type', '1'],
        '--server URL is required',
      ],
      [
        [
          'upload',
          'x.xml',
          '--server',
          'ftp://x',
          '--token',
          't',
          '--app',
          'a',
          '--commit',
          'c',
          '--env',
          'e',
          '--test-type',
          '1',
        ],
        '--server wants an http(s) URL',
      ],
      [['upload', '--server', 'http://x'], 'no coverage file given'],
      [
        ['agent', '--server', 'http://x', '--token', 't', '--app', 'a', '--env', 'test'],
        '--watch GLOB (the coverage files to send) or --jacoco HOST:PORT is required',
      ],
      [[...agentBase, '--jacoco', 'app:6300'], '--jacoco needs --classes DIR|JAR'],
      [[...agentBase, '--watch', '*', '--classes', 'build'], '--classes goes with --jacoco HOST:PORT'],
      [[...agentBase, '--jacoco', 'app:99999', '--classes', 'build'], '--jacoco wants HOST:PORT'],
      [
        [
          'agent',
          '--server',
          'http://x',
          '--token',
          't',
          '--app',
          'a',
          '--env',
          'test',
          '--watch',
          '*',
          '--interval',
          'x',
        ],
        '--interval wants',
      ],
    ];
    for (const [argv, reason] of cases) {
      const run = io();
      expect(await runCli(argv, run.io)).toBe(1);
      const [first, second] = run.err;
      expect(first).toContain(reason);
      expect(second).toMatch(new RegExp(`^usage: sextant ${argv[0]} `));
    }
  });
});
