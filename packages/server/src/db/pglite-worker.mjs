import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

/** Runs PGlite off the main thread so a long query never stalls HTTP; serves it on a unix socket. */
const { dataDir, socketPath } = workerData;
const db = await PGlite.create(dataDir);
const server = new PGLiteSocketServer({ db, path: socketPath, maxConnections: 100 });
await server.start();
parentPort?.postMessage({ ready: true });
parentPort?.on('message', async (msg) => {
  if (!msg.stop) return;
  await server.stop();
  await db.close();
  parentPort?.postMessage({ stopped: true });
});
