/**
 * The spawn helper (spawner.ts): a small Node process, forked while its parent is still small, that
 * starts programs on the parent's behalf and streams their output back over IPC. A fork copies the
 * forking process's page tables and blocks its thread until the child has exec'd: from a server of
 * 1 GB that cost about 200 ms of the main thread per git command on a loaded machine (issue 41).
 * Plain JavaScript, no loader: it stays at the size of a bare Node.
 *
 * Parent → helper: spawn {id, command, args, cwd, env, detached, stdin, stdout, stderr}, stdin {id, data},
 * stdin-end {id}, kill {id, signal, group, abandon}. Helper → parent: spawned {id, pid}, data {id, fd, data},
 * error {id, message, code}, close {id, code, signal}.
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';

const children = new Map();

function send(message) {
  if (process.connected) process.send(message);
}

function target(stdio) {
  return typeof stdio === 'object' && stdio !== null ? openSync(stdio.file, 'w') : stdio;
}

function start(request) {
  const { id } = request;
  const stdio = [request.stdin, target(request.stdout), request.stderr];
  let child;
  try {
    child = spawn(request.command, request.args, {
      cwd: request.cwd,
      env: request.env,
      detached: request.detached,
      stdio,
    });
  } catch (error) {
    send({ type: 'error', id, message: error.message, code: error.code ?? null });
    return;
  } finally {
    if (typeof stdio[1] === 'number') closeSync(stdio[1]);
  }
  const entry = { child, detached: request.detached, failed: false };
  children.set(id, entry);
  child.once('spawn', () => send({ type: 'spawned', id, pid: child.pid }));
  child.stdout?.on('data', (data) => send({ type: 'data', id, fd: 1, data }));
  child.stderr?.on('data', (data) => send({ type: 'data', id, fd: 2, data }));
  child.stdin?.on('error', () => undefined);
  child.on('error', (error) => {
    entry.failed = true;
    children.delete(id);
    send({ type: 'error', id, message: error.message, code: error.code ?? null });
  });
  child.on('close', (code, signal) => {
    children.delete(id);
    if (!entry.failed) send({ type: 'close', id, code, signal });
  });
}

function kill(entry, signal, group, abandon) {
  if (abandon) {
    entry.child.stdout?.destroy();
    entry.child.stderr?.destroy();
  }
  const pid = entry.child.pid;
  if (!pid) return;
  try {
    process.kill(group && entry.detached ? -pid : pid, signal);
  } catch {
    // already gone
  }
}

process.on('message', (message) => {
  const entry = children.get(message.id);
  if (message.type === 'spawn') start(message);
  else if (message.type === 'stdin') entry?.child.stdin?.write(Buffer.from(message.data));
  else if (message.type === 'stdin-end') entry?.child.stdin?.end();
  else if (message.type === 'kill' && entry) kill(entry, message.signal, message.group, message.abandon);
});

// The parent is gone (ended or killed): what it started goes too, as its own children would have.
process.on('disconnect', () => {
  for (const entry of children.values()) kill(entry, 'SIGKILL', true);
  process.exit(0);
});
