import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketHandler, PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { traceHolds } from './pglite-holds.mjs';

/**
 * Runs PGlite off the main thread so a long query never stalls HTTP; serves it on a unix socket.
 * `loadFrom` starts it from a data folder dumped earlier (skipping PGlite's initdb, most of its start).
 */
const { dataDir, socketPath, loadFrom, traceHolds: tracing } = workerData;
// PostgreSQL's default 128 MB of shared buffers lives in the engine's WebAssembly memory, which never
// shrinks: a large report's write filled it all and kept it for the process's life (issue 41: peak RSS
// over 600 MB). With 16 MB, pages beyond go to the data folder's files (on disk the OS caches them
// outside the process): bench/report-pipeline-server.ts, RSS 449 → 355 MB at start, peak 899 → 735 MB
// with the parser threads' change of the same commit.
const startParams = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];
const db = loadFrom
  ? await PGlite.create(dataDir, { loadDataDir: new Blob([readFileSync(loadFrom)]), startParams })
  : await PGlite.create(dataDir, { startParams });
// Every pool connection shares this one session. A new 16 MB WAL segment is otherwise zero-filled by
// whichever statement crosses into it: on a 20,000-class report's write that one statement held every
// other request (55 ms of CPU and 179 ms wall against 24 and 52 for its peers, issue 41). PGlite
// runs with fsync off, so the zeroes bought no crash safety.
await db.exec('set wal_init_zero = off');
joinMessagesOnce(PGLiteSocketHandler.prototype);
const server = new PGLiteSocketServer({ db, path: socketPath, maxConnections: 100 });
keepExtendedQueriesWhole(server);
const takeHolds = tracing ? traceHolds(server.queryQueue) : () => [];
await server.start();
parentPort?.postMessage({ ready: true });
parentPort?.on('message', async (msg) => {
  if (msg.takeHolds) {
    parentPort?.postMessage({ holds: takeHolds() });
    return;
  }
  if (msg.dumpTo) {
    const dump = await db.dumpDataDir('none');
    const partial = `${msg.dumpTo}.${process.pid}.${Date.now()}`;
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    renameSync(partial, msg.dumpTo);
    parentPort?.postMessage({ dumped: true });
    return;
  }
  if (!msg.stop) return;
  await server.stop();
  await db.close();
  parentPort?.postMessage({ stopped: true });
});

/**
 * pglite-socket 0.2 queues each protocol message on its own and interleaves connections between
 * them, except inside a transaction. An extended query is several messages (Parse, Bind, Describe,
 * Execute, then Sync) on the one unnamed statement, so two connections querying at once could bind
 * each other's statement ("bind message supplies 2 parameters, but prepared statement "" requires
 * 1"). Its queue already keeps one connection while `isInTransaction()`; an open extended query
 * counts as such here, until its Sync (or its connection goes away).
 */
function keepExtendedQueriesWhole(socketServer) {
  const queue = socketServer.queryQueue;
  const engine = queue.db;
  const EXCHANGE = new Set([0x50, 0x42, 0x44, 0x45, 0x43, 0x48]); // P B D E C H
  const SYNC = 0x53;
  let open = false;
  queue.db = new Proxy(engine, {
    get(target, prop) {
      if (prop === 'isInTransaction') return () => open || target.isInTransaction();
      if (prop === 'execProtocolRawStream') {
        return async (message, options) => {
          const result = await target.execProtocolRawStream(message, options);
          if (message[0] === SYNC) open = false;
          else if (EXCHANGE.has(message[0])) open = true;
          return result;
        };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  const clear = queue.clearQueueForHandler.bind(queue);
  queue.clearQueueForHandler = (handlerId) => {
    clear(handlerId);
    if (queue.lastHandlerId === handlerId && open) {
      open = false;
      if (!engine.isInTransaction()) void queue.processQueue();
    }
  };
}

const STARTUP_PROTOCOL = 196608;
const SSL_OR_CANCEL = new Set([80877103, 80877102]);

/**
 * pglite-socket 0.2 appends each chunk the socket reads to the bytes it holds (`Buffer.concat`) and
 * looks for a whole message each time: a message of n chunks is copied about n²/2 chunk lengths (a
 * 1 MiB bind of an upload's blob chunk or a report's unnest arrays arrives in 16–64 KiB reads). Here a
 * message's chunks wait in a list until it is whole, then go to its reader as one buffer, copied once.
 */
function joinMessagesOnce(handlerPrototype) {
  const handleData = handlerPrototype.handleData;
  handlerPrototype.handleData = function (data) {
    if (this.waiting) {
      this.waiting.chunks.push(data);
      this.waiting.bytes += data.length;
      if (this.messageBuffer.length + this.waiting.bytes < this.waiting.needs) return Promise.resolve(0);
      const whole = Buffer.concat(this.waiting.chunks, this.waiting.bytes);
      this.waiting = null;
      return handleData.call(this, whole);
    }
    const held = this.messageBuffer.length;
    const needs =
      held + data.length >= 8 ? nextMessageLength(Buffer.concat([this.messageBuffer, data.subarray(0, 8)])) : 0;
    if (needs > held + data.length) {
      // The bytes held so far stay in `messageBuffer`; the rest wait here.
      this.waiting = { chunks: [data], bytes: data.length, needs };
      return Promise.resolve(0);
    }
    return handleData.call(this, data);
  };
}

/** The length of the message starting `head` (8 bytes or more), as pglite-socket reads it; 0 when it is not known. */
function nextMessageLength(head) {
  const second = head.readInt32BE(4);
  if (SSL_OR_CANCEL.has(second)) return 0;
  if (second === STARTUP_PROTOCOL) return head.readInt32BE(0);
  return 1 + head.readInt32BE(1);
}
