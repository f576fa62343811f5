import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePort } from '../../packages/cli/test/support/free-port.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    adminPassword: string;
    jwtSecret: string;
    traceViewerPort: number;
    demoDir: string;
  }
}

const root = new URL('../..', import.meta.url).pathname;

function waitForListening(child: ChildProcess, output: { text: string }): Promise<void> {
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output.text += chunk.toString();
      if (output.text.includes('Server listening')) resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`npm start exited with ${code}:\n${output.text}`)));
  });
}

/** Starts the server exactly as `npm start` does, on a free port with a fresh data folder. */
export default async function setup(project: TestProject) {
  const dataDir = mkdtempSync(join(tmpdir(), 'sextant-e2e-'));
  // The demo workspace the suites share (support/demo.ts): its repositories and what its first run printed.
  const demoDir = mkdtempSync(join(tmpdir(), 'sextant-e2e-demo-'));
  const port = await freePort();
  // Its own viewer port: 5173 may be taken by another server on this machine (point 2's default).
  const traceViewerPort = await freePort();
  const adminPassword = `e2e-${randomBytes(9).toString('base64url')}`;
  const jwtSecret = randomBytes(48).toString('base64url');
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: root,
    env: {
      ...inherited,
      PORT: String(port),
      HOST: '127.0.0.1',
      SEXTANT_DATA_DIR: dataDir,
      SEXTANT_ADMIN_PASSWORD: adminPassword,
      SEXTANT_JWT_SECRET: jwtSecret,
      SEXTANT_TRACE_VIEWER_PORT: String(traceViewerPort),
      // Likewise OTLP/gRPC's 4317: a free one, so parallel servers on this machine do not collide.
      SEXTANT_OTLP_GRPC_PORT: String(await freePort()),
      // The journeys' repositories are local clones in the temporary folder.
      SEXTANT_REPO_PATHS: tmpdir(),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = { text: '' };
  await waitForListening(child, output);
  // A server that stops before the suites end leaves its last words where the screenshots go.
  child.once('exit', (code, signal) => {
    mkdirSync(join(root, 'e2e/artifacts'), { recursive: true });
    writeFileSync(join(root, 'e2e/artifacts/server-exit.log'), `exit ${code} ${signal}\n${output.text.slice(-20_000)}`);
  });
  project.provide('baseUrl', `http://127.0.0.1:${port}`);
  project.provide('adminPassword', adminPassword);
  project.provide('jwtSecret', jwtSecret);
  project.provide('traceViewerPort', traceViewerPort);
  project.provide('demoDir', demoDir);
  return async () => {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(demoDir, { recursive: true, force: true });
  };
}
