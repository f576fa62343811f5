import { type ChildProcess, spawn } from 'node:child_process';
import { Client, type IFrame } from '@stomp/stompjs';
import { WebSocket } from 'ws';

const ROOT = new URL('../../../../', import.meta.url).pathname;

/** What a started server process answers on: the API for `web`, the probes for `worker`. */
const READY: Record<'web' | 'worker', RegExp> = {
  web: /Server listening at (http:\/\/127\.0\.0\.1:\d+)/,
  worker: /Worker probes listening at (http:\/\/127\.0\.0\.1:\d+)/,
};

/** A real server process (`main.ts --role <role>`), as `npm start -- --role <role>` runs it. */
export class RoleProcess {
  private output = '';
  private child: ChildProcess | null = null;
  base = '';

  constructor(
    readonly role: 'web' | 'worker',
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  start(): Promise<this> {
    const child = spawn(process.execPath, ['--import', 'tsx', 'packages/server/src/main.ts', '--role', this.role], {
      cwd: ROOT,
      env: this.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    return new Promise((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        this.output = (this.output + chunk.toString()).slice(-50_000);
        const match = this.output.match(READY[this.role]);
        if (match?.[1] && !this.base) {
          this.base = match[1];
          resolve(this);
        }
      };
      child.stdout?.on('data', onData);
      child.stderr?.on('data', onData);
      child.once('exit', (code, signal) =>
        reject(new Error(`${this.role} exited (${code ?? signal}):\n${this.output}`)),
      );
    });
  }

  /** Sends `signal` and resolves with the exit code once the process is gone (null: ended by the signal). */
  async stop(signal: NodeJS.Signals): Promise<number | null> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return child?.exitCode ?? null;
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill(signal);
    return exited;
  }

  log(): string {
    return this.output;
  }
}

export type Progress = { id: string; report_id?: string; status?: string };

/** A @stomp/stompjs client on `/all/messages` of one web process, keeping every message and ERROR frame. */
export async function listener(base: string, token: string) {
  const received: Progress[] = [];
  const errors: IFrame[] = [];
  let closed = false;
  const client = new Client({
    webSocketFactory: () => new WebSocket(`${base.replace('http', 'ws')}/ws`, ['v12.stomp']),
    connectHeaders: { Authorization: `Bearer ${token}` },
    reconnectDelay: 0,
    heartbeatIncoming: 0,
    heartbeatOutgoing: 0,
  });
  client.onStompError = (frame) => errors.push(frame);
  client.onWebSocketClose = () => {
    closed = true;
  };
  await new Promise<void>((resolve, reject) => {
    client.onConnect = () => resolve();
    client.onWebSocketError = () => reject(new Error(`no STOMP connection to ${base}`));
    client.activate();
  });
  const subscribed = new Promise<void>((resolve) => client.watchForReceipt('sub', () => resolve()));
  client.subscribe('/all/messages', (m) => received.push(JSON.parse(m.body) as Progress), { receipt: 'sub' });
  await subscribed;
  return {
    client,
    errors,
    closed: () => closed,
    /** The ids of the messages of one report, in the order they arrived. */
    idsOf: (reportId: string) => received.filter((m) => m.report_id === reportId).map((m) => m.id),
    statusesOf: (reportId: string) => received.filter((m) => m.report_id === reportId).map((m) => m.status ?? ''),
  };
}

export async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
