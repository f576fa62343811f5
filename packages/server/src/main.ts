import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { seed } from './db/seed.ts';
import { createRedisFanOut } from './realtime/fanout-redis.ts';

const config = loadConfig();
const database = await openDatabase({ url: config.databaseUrl, pgliteDir: `${config.dataDir}/pg` });
const generated = await seed(database.db, config.adminPassword);
if (generated) process.stdout.write(`Sextant admin password: ${generated}\n`);
const fanOut = config.redisUrl ? await createRedisFanOut(config.redisUrl) : undefined;
const app = await buildApp({ config, db: database.db, logger: true, fanOut });
await app.listen({ port: config.port, host: config.host });

let closing = false;
async function shutdown(signal: string): Promise<void> {
  if (closing) return;
  closing = true;
  app.log.info(`${signal}: closing`);
  await app.close();
  await fanOut?.close();
  await database.close();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
