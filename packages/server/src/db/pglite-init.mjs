/**
 * Initialises a new PGlite data folder (`node pglite-init.mjs <folder>`) in a process of its own, which
 * ends afterwards: initdb grows the engine's WebAssembly memory to about 750 MB, and a WebAssembly
 * memory never shrinks, so in the server's PGlite worker those pages would stay for the process's life
 * (issue 41: 874 MB of RSS before the first report). The folder opened afterwards starts at about 250 MB.
 */
import { PGlite } from '@electric-sql/pglite';

const db = await PGlite.create(process.argv[2]);
await db.close();
