// What a server test file pays for its database before its first test, in CPU seconds of this
// process (all its threads, so the PGlite worker's too: independent of the machine's load):
// `freshDatabase()` from the dumped template, the seed, `buildTestApp()` with a sign-in, and PGlite's
// own start from the same template on this thread (the engine without the worker, socket and pool).
// `npx tsx bench/test-database-start.ts [ROUNDS]`
import { readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { seed } from '../packages/server/src/db/seed.ts';
import {
  ADMIN_PASSWORD,
  buildTestApp,
  embeddedTemplateFile,
  freshDatabase,
  signIn,
} from '../packages/server/test/support/build-test-app.ts';

const rounds = Number(process.argv[2] ?? 3);
const cpu = () => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1e6;
};
const figures = new Map<string, number[]>();
async function measure<T>(label: string, work: () => Promise<T>): Promise<T> {
  const before = cpu();
  const result = await work();
  figures.set(label, [...(figures.get(label) ?? []), cpu() - before]);
  return result;
}

await (await freshDatabase()).close(); // makes the template when this machine has none yet
for (let round = 0; round < rounds; round++) {
  const database = await measure('freshDatabase() (worker, PGlite from the template, pool)', () => freshDatabase());
  await measure('seed()', () => seed(database.db, ADMIN_PASSWORD));
  await measure('close()', () => database.close());
  const app = await measure('buildTestApp() and a sign-in', async () => {
    const built = await buildTestApp();
    await signIn(built.app, 'admin', ADMIN_PASSWORD);
    return built;
  });
  await measure('close() of the app', () => app.close());
  const template = readFileSync(await embeddedTemplateFile());
  const engine = await measure('PGlite.create() from the template, this thread', () =>
    PGlite.create('memory://', { loadDataDir: new Blob([template]) }),
  );
  await engine.close();
}
for (const [label, values] of figures) {
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  console.log(`${label}: ${mean.toFixed(2)} CPU-s (rounds: ${values.map((v) => v.toFixed(2)).join(', ')})`);
}
