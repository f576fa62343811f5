import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppOptions } from '../packages/server/src/app.ts';
import { type Config, loadConfig } from '../packages/server/src/config.ts';

/** What a bench server's `/api/about` says (no bench reads it). */
export const BENCH_ABOUT: AppOptions['about'] = { version: 'bench', commit: null, database: 'embedded' };

/**
 * A bench server's configuration: what an environment naming nothing else gives (`loadConfig`), a fresh
 * signing key, and a throw-away data folder unless `given` names one.
 */
export function benchConfig(given: Partial<Config> = {}): Config {
  const dataDir = given.dataDir ?? mkdtempSync(join(tmpdir(), 'sx-bench-'));
  const env = { SEXTANT_DATA_DIR: dataDir, SEXTANT_JWT_SECRET: randomBytes(32).toString('hex') };
  return { ...loadConfig(env), ...given };
}
