// Method extraction throughput (tree-sitter parse + our walk), in-process, one thread: Java from
// the JDK's own sources (java.util and java.lang out of the first src.zip under /usr/lib/jvm) and
// JavaScript from ECharts 6.1.0 (bench/out/cobertura/repo-1, made by bench/gen/cobertura-echarts.sh).
// Every method body is hashed (the worst case; a diff hashes only the methods it reaches).
// Medians of RUNS passes (default 3) after one warm-up pass. Run: npx tsx bench/extract-methods.ts
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extractMethods } from '../packages/coverage/src/methods/extract.ts';
import type { SourceLanguage } from '../packages/coverage/src/methods/types.ts';

const RUNS = Number(process.env.RUNS ?? 3);
const root = new URL('..', import.meta.url).pathname;

interface Corpus {
  name: string;
  files: { language: SourceLanguage; text: string }[];
}

function filesUnder(dir: string, suffix: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith(suffix))
    .sort()
    .map((f) => join(dir, f));
}

function jdkCorpus(scratch: string): Corpus | null {
  const jvm = '/usr/lib/jvm';
  const zip = existsSync(jvm)
    ? readdirSync(jvm)
        .map((d) => join(jvm, d, 'lib/src.zip'))
        .find((z) => existsSync(z))
    : undefined;
  if (!zip) return null;
  execFileSync('unzip', ['-q', '-o', zip, 'java.base/java/util/*', 'java.base/java/lang/*', '-d', scratch]);
  const files = filesUnder(scratch, '.java').map((f) => ({ language: 'java' as const, text: readFileSync(f, 'utf8') }));
  return { name: `JDK java.util + java.lang (${zip})`, files };
}

function echartsCorpus(): Corpus | null {
  const repo = join(root, 'bench/out/cobertura/repo-1');
  if (!existsSync(repo)) return null;
  const files = filesUnder(join(repo, 'node_modules'), '.js')
    .filter((f) => f.includes('/lib/'))
    .map((f) => ({ language: 'javascript' as const, text: readFileSync(f, 'utf8') }));
  return { name: 'ECharts + zrender 6.1.0 lib/ (JavaScript)', files };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] as number;

async function pass(corpus: Corpus): Promise<{ seconds: number; methods: number }> {
  const start = performance.now();
  let methods = 0;
  for (const file of corpus.files) methods += (await extractMethods(file.language, file.text)).length;
  return { seconds: (performance.now() - start) / 1000, methods };
}

const scratch = mkdtempSync(join(tmpdir(), 'sextant-extract-'));
try {
  for (const corpus of [jdkCorpus(scratch), echartsCorpus()]) {
    if (!corpus) continue;
    const megabytes = corpus.files.reduce((sum, f) => sum + Buffer.byteLength(f.text), 0) / 1e6;
    await pass(corpus);
    const passes: number[] = [];
    let methods = 0;
    for (let i = 0; i < RUNS; i++) {
      const done = await pass(corpus);
      passes.push(done.seconds);
      methods = done.methods;
    }
    const seconds = median(passes);
    console.log(`${corpus.name}: ${corpus.files.length} files, ${megabytes.toFixed(1)} MB, ${methods} methods`);
    console.log(`  ${seconds.toFixed(2)} s per pass (median of ${RUNS}), ${(megabytes / seconds).toFixed(1)} MB/s`);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
