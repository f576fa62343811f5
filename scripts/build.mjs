#!/usr/bin/env node
// Builds what a fresh clone needs: the CLI bundle (fast start for `npx sextant`) and the web app.
// `--cli` builds only the CLI (run by `npm install` through the root `prepare` script).
// `--if-missing` skips a target whose output already exists and is newer than its sources.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const args = new Set(process.argv.slice(2));

function newestMtime(dir) {
  if (!statSync(dir).isDirectory()) return statSync(dir).mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

function isFresh(output, sourceDirs) {
  if (!existsSync(output)) return false;
  const built = statSync(output).mtimeMs;
  return sourceDirs.every((dir) => !existsSync(dir) || newestMtime(dir) <= built);
}

async function buildCli() {
  const entry = join(root, 'packages/cli/src/main.ts');
  const output = join(root, 'packages/cli/dist/sextant.mjs');
  if (!existsSync(entry)) return;
  const sources = ['packages/cli/src', 'packages/coverage/src', 'packages/api/src'].map((d) => join(root, d));
  if (args.has('--if-missing') && isFresh(output, sources)) return;
  const esbuild = await import('esbuild');
  const dist = join(root, 'packages/cli/dist');
  // Chunks and lazily loaded commands carry content hashes in their names: a rebuild removes the old
  // ones, which would otherwise pile up (and change the method cache's version digest).
  if (existsSync(dist)) for (const name of readdirSync(dist)) if (name.endsWith('.mjs')) rmSync(join(dist, name));
  await esbuild.build({
    // The method extraction pool starts its worker threads from method-worker.mjs beside the CLI;
    // chunks keep the server commands' code (and zod) out of what `sextant coverage` loads.
    entryPoints: { sextant: entry, 'method-worker': join(root, 'packages/coverage/src/node/method-worker.ts') },
    outdir: dist,
    outExtension: { '.js': '.mjs' },
    splitting: true,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Grammars and runtimes load .wasm files relative to their own package at run time.
    external: ['web-tree-sitter', '@vscode/tree-sitter-wasm', 'tree-sitter-wasms', 'saxes'],
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    logLevel: 'warning',
  });
}

function buildWeb() {
  const output = join(root, 'packages/web/dist/index.html');
  const sources = [
    'packages/web/src',
    'packages/web/index.html',
    'packages/web/vite.config.ts',
    'packages/api/src',
  ].map((d) => join(root, d));
  if (args.has('--if-missing') && isFresh(output, sources)) return;
  console.log('Building the web app…');
  execFileSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: join(root, 'packages/web'), stdio: 'inherit' });
}

await buildCli();
if (!args.has('--cli')) buildWeb();
