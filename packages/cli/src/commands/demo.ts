import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { PATHS } from '@sextant/api';
import { type CommandIo, UsageError } from '../usage.ts';
import { DemoApi } from './demo/client.ts';
import { loadDemo, removeDemo } from './demo/load.ts';
import { DEMO_HELP, DEMO_USAGE } from './usages.ts';

export { DEMO_HELP, DEMO_USAGE };

/** packages/cli/demo, from the bundle (dist/) or the sources (src/commands/). */
function demoDirectory(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    if (existsSync(join(dir, 'demo', 'inventory', 'repo.bundle'))) return join(dir, 'demo');
    dir = dirname(dir);
  }
  throw new Error('the demo fixtures (packages/cli/demo) are missing from this installation');
}

async function signIn(server: string, user: string, password: string): Promise<string> {
  const res = await fetch(new URL(PATHS.login, server), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: user, password }),
  });
  const body = (await res.json().catch(() => ({}))) as { message?: string; data?: { accessToken?: string } };
  if (!res.ok || !body.data?.accessToken) throw new Error(`sign-in as ${user} failed: ${body.message ?? res.status}`);
  return body.data.accessToken;
}

export async function demoCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    options: {
      server: { type: 'string', default: 'http://localhost:8080' },
      token: { type: 'string' },
      user: { type: 'string', default: 'admin' },
      password: { type: 'string' },
      'data-dir': { type: 'string', default: 'data' },
      'repos-dir': { type: 'string' },
      remove: { type: 'boolean', default: false },
      timeout: { type: 'string', default: '600' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    io.stdout(DEMO_HELP);
    return 0;
  }
  const timeout = Number(values.timeout);
  if (!Number.isFinite(timeout) || timeout <= 0) throw new UsageError(`--timeout must be a number of seconds`);
  const server = values.server as string;
  const dataDir = resolve(io.cwd, values['data-dir'] as string);
  const token = values.token ?? (await signIn(server, values.user as string, password(values.password, dataDir)));
  const options = {
    api: new DemoApi(server, token),
    demoDir: demoDirectory(),
    reposDir: resolve(io.cwd, values['repos-dir'] ?? join(dataDir, 'demo-repos')),
    log: (line: string) => io.stderr(`${line}\n`),
  };
  if (values.remove) {
    const removed = await removeDemo(options);
    io.stdout(`demo workspace removed (${removed} objects)\n`);
    return 0;
  }
  const summary = await loadDemo({ ...options, timeoutMs: timeout * 1000 });
  io.stdout(
    `demo workspace ready: ${summary.created} created, ${summary.existing} already there, ` +
      `${summary.reports.length} reports run now\n`,
  );
  return 0;
}

function password(given: string | undefined, dataDir: string): string {
  if (given) return given;
  if (process.env.SEXTANT_ADMIN_PASSWORD) return process.env.SEXTANT_ADMIN_PASSWORD;
  const file = join(dataDir, 'initial-admin-password');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  throw new UsageError('give --token, or --password, or set SEXTANT_ADMIN_PASSWORD');
}
