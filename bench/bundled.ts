// Benches time the code as the CLI runs it: bundled by esbuild, not through tsx's loader, which
// makes the scanner 3-4x slower (measured on ECharts' lib/: 22 against 86 MB/s steady).
import { copyFileSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { NODE_BUNDLE } from '../scripts/node-bundle.mjs';

const root = new URL('..', import.meta.url).pathname;
const out = join(root, 'node_modules/.cache/sextant-bench');

/** `entry` (a path under bench/) bundled into node_modules/.cache, with the compiled modules beside it, and imported. */
export async function bundled<T>(entry: string): Promise<T> {
  mkdirSync(out, { recursive: true });
  const outfile = join(out, `${basename(entry, '.ts')}.mjs`);
  await build({ entryPoints: [join(root, 'bench', entry)], outfile, ...NODE_BUNDLE });
  const compiled = join(root, 'packages/coverage/dist');
  const modules = existsSync(compiled) ? readdirSync(compiled).filter((name) => name.endsWith('.wasm')) : [];
  for (const module of modules) copyFileSync(join(compiled, module), join(out, module));
  return (await import(pathToFileURL(outfile).href)) as T;
}
