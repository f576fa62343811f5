#!/usr/bin/env node
// Builds what a fresh clone needs: the JavaScript tokenizer compiled to WebAssembly, the CLI
// bundle (fast start for `npx sextant`) and the web app. `--cli` builds only the first two (run by
// `npm install` through the root `prepare` script).
// `--if-missing` skips a target whose output already exists and is newer than its sources.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { NODE_BUNDLE } from './node-bundle.mjs';

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

const ASSEMBLY = join(root, 'packages/coverage/assembly');
const WASM_DIST = join(root, 'packages/coverage/dist');
/** assembly/NAME.ts -> packages/coverage/dist/NAME.wasm: the JavaScript tokenizer, the Cobertura line reader. */
const COMPILED = ['tokens', 'cobertura-lines'];
const compiledFile = (name) => join(WASM_DIST, `${name}.wasm`);

/**
 * The COMPILED modules (AssemblyScript, a dev dependency). Without the compiler (a production
 * install) nothing is built, and JavaScript does their work (same answers, slower on a first run).
 */
async function buildCompiled() {
  if (args.has('--if-missing') && COMPILED.every((name) => isFresh(compiledFile(name), [ASSEMBLY]))) return;
  let asc;
  try {
    asc = (await import('assemblyscript/asc')).default;
  } catch {
    console.warn('AssemblyScript is not installed: JavaScript tokenizes sources and reads Cobertura lines');
    return;
  }
  mkdirSync(WASM_DIST, { recursive: true });
  for (const name of COMPILED) {
    const options = ['-O3', '--runtime', 'stub', '--noAssert', '--use', 'abort=', '--outFile', compiledFile(name)];
    const { error, stderr } = await asc.main([join(ASSEMBLY, `${name}.ts`), ...options]);
    if (error) throw new Error(`assembly/${name}.ts: ${error.message}\n${stderr.toString()}`);
  }
}

async function buildCli() {
  const entry = join(root, 'packages/cli/src/main.ts');
  const output = join(root, 'packages/cli/dist/sextant.mjs');
  if (!existsSync(entry)) return;
  const sources = [
    'packages/cli/src',
    'packages/coverage/src',
    'packages/coverage/assembly',
    'packages/api/src',
    ...COMPILED.map(compiledFile),
  ].map((d) => (d.startsWith('/') ? d : join(root, d)));
  if (args.has('--if-missing') && isFresh(output, sources)) return;
  const esbuild = await import('esbuild');
  const dist = join(root, 'packages/cli/dist');
  // Chunks and lazily loaded commands carry content hashes in their names: a rebuild removes the old
  // ones, which would otherwise pile up (and change the method cache's version digest).
  if (existsSync(dist)) {
    for (const name of readdirSync(dist)) if (/\.(mjs|wasm)$/.test(name)) rmSync(join(dist, name));
  }
  await esbuild.build({
    // The method extraction pool starts its worker threads from method-worker.mjs beside the CLI;
    // chunks keep the server commands' code (and zod) out of what `sextant coverage` loads.
    entryPoints: { sextant: entry, 'method-worker': join(root, 'packages/coverage/src/node/method-worker.ts') },
    outdir: dist,
    outExtension: { '.js': '.mjs' },
    splitting: true,
    ...NODE_BUNDLE,
  });
  // Loaded beside the bundle's chunks (node/compiled.ts).
  for (const name of COMPILED) {
    if (existsSync(compiledFile(name))) copyFileSync(compiledFile(name), join(dist, `${name}.wasm`));
  }
  writeFileSync(join(dist, 'build-id'), `${buildDigest(dist)}\n`);
}

/**
 * A digest of the built files (names and contents), which the method cache takes as the
 * extractor's version: read at run time, it spares each run hashing the bundle (and loading
 * node:crypto to do it).
 */
function buildDigest(dist) {
  const hash = createHash('sha1');
  for (const name of readdirSync(dist)
    .filter((n) => /\.(mjs|wasm)$/.test(n))
    .sort()) {
    hash.update(name).update(readFileSync(join(dist, name)));
  }
  return hash.digest('hex');
}

function buildWeb() {
  const output = join(root, 'packages/web/dist/index.html');
  const sources = [
    'packages/web/src',
    'packages/web/index.html',
    'packages/web/trace.html',
    'packages/web/vite.config.ts',
    'packages/api/src',
  ].map((d) => join(root, d));
  if (args.has('--if-missing') && isFresh(output, sources)) return;
  console.log('Building the web app…');
  execFileSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: join(root, 'packages/web'), stdio: 'inherit' });
}

await buildCompiled();
await buildCli();
if (!args.has('--cli')) buildWeb();
