// Method extraction throughput, in-process, one thread: tree-sitter (parse + our walk) and, for
// JavaScript and TypeScript, the scanner (js-scan/) that replaces it, checked to give the same
// methods. Java from the JDK's own sources (java.util and java.lang out of the first src.zip under
// /usr/lib/jvm), JavaScript (lib/) and TypeScript (zrender's src/) from ECharts 6.1.0
// (bench/out/cobertura/repo-1, made by bench/gen/cobertura-echarts.sh). Every method body is hashed
// (the worst case; a diff hashes only the methods it reaches). The first pass is what a CLI run
// sees (code not yet optimised by V8); then medians of RUNS passes (default 3). The code runs
// bundled, as the CLI runs it (bundled.ts).
// Run: npx tsx bench/extract-methods.ts
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SourceLanguage, SourceMethod } from '../packages/coverage/src/methods/types.ts';
import { bundled } from './bundled.ts';

const { parseMethods, createParser, scanScriptMethods, HASH_ALL, loadCompiledTokenizer } =
  await bundled<typeof import('./methods-entry.ts')>('methods-entry.ts');
// The scanner tokenizes as in the CLI: with the WebAssembly build when there is one.
const tokenizer = loadCompiledTokenizer() ? 'WebAssembly' : 'JavaScript';

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

function echartsCorpora(): Corpus[] {
  const repo = join(root, 'bench/out/cobertura/repo-1');
  if (!existsSync(repo)) return [];
  const javascript = filesUnder(join(repo, 'node_modules'), '.js')
    .filter((f) => f.includes('/lib/'))
    .map((f) => ({ language: 'javascript' as const, text: readFileSync(f, 'utf8') }));
  const typescript = filesUnder(join(repo, 'node_modules/zrender/src'), '.ts')
    .filter((f) => !f.endsWith('.d.ts'))
    .map((f) => ({ language: 'typescript' as const, text: readFileSync(f, 'utf8') }));
  return [
    { name: 'ECharts + zrender 6.1.0 lib/ (JavaScript)', files: javascript },
    { name: 'zrender 6.1.0 src/ (TypeScript)', files: typescript },
  ];
}

type Engine = (language: SourceLanguage, text: string) => Promise<SourceMethod[]>;

const treeSitter: Engine = (language, text) => parseMethods(language, text);

/** The scanner, falling back to tree-sitter where it hands a file over (as extractMethods does). */
const scanner: Engine = async (language, text) =>
  scanScriptMethods(text, HASH_ALL, language === 'typescript') ?? treeSitter(language, text);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] as number;

async function pass(corpus: Corpus, engine: Engine): Promise<{ seconds: number; found: SourceMethod[][] }> {
  const start = performance.now();
  const found: SourceMethod[][] = [];
  for (const file of corpus.files) found.push(await engine(file.language, file.text));
  return { seconds: (performance.now() - start) / 1000, found };
}

/**
 * Files where an engine's methods differ from tree-sitter's; throws unless tree-sitter's parse of
 * each has an error (then tree-sitter's answer is not the one to trust).
 */
async function differences(corpus: Corpus, expected: SourceMethod[][], found: SourceMethod[][]): Promise<number> {
  let count = 0;
  for (const [index, file] of corpus.files.entries()) {
    if (JSON.stringify(found[index]) === JSON.stringify(expected[index])) continue;
    const parser = await createParser(file.language);
    const tree = parser.parse(file.text);
    parser.delete();
    const hasError = tree?.rootNode.hasError ?? true;
    tree?.delete();
    if (!hasError) throw new Error(`other methods than tree-sitter's in ${corpus.name}, file ${index}`);
    count++;
  }
  return count;
}

const scratch = mkdtempSync(join(tmpdir(), 'sextant-extract-'));
try {
  for (const corpus of [jdkCorpus(scratch), ...echartsCorpora()]) {
    if (!corpus) continue;
    const megabytes = corpus.files.reduce((sum, f) => sum + Buffer.byteLength(f.text), 0) / 1e6;
    const language = corpus.files[0]?.language;
    const engines: [string, Engine][] = [['tree-sitter', treeSitter]];
    if (language === 'javascript' || language === 'typescript') engines.push(['scanner', scanner]);
    console.log(`${corpus.name}: ${corpus.files.length} files, ${megabytes.toFixed(1)} MB; ${tokenizer} tokenizer`);
    let reference: SourceMethod[][] | null = null;
    for (const [name, engine] of engines) {
      const first = await pass(corpus, engine);
      reference ??= first.found;
      const differing = await differences(corpus, reference, first.found);
      if (differing > 0) console.log(`  ${name}: ${differing} files differ, in each tree-sitter's parse has an error`);
      const passes: number[] = [];
      for (let i = 0; i < RUNS; i++) passes.push((await pass(corpus, engine)).seconds);
      const seconds = median(passes);
      const methods = first.found.reduce((sum, m) => sum + m.length, 0);
      console.log(
        `  ${name.padEnd(11)} ${methods} methods; first pass ${first.seconds.toFixed(2)} s (${(megabytes / first.seconds).toFixed(1)} MB/s), ` +
          `then ${seconds.toFixed(2)} s per pass (median of ${RUNS}), ${(megabytes / seconds).toFixed(1)} MB/s`,
      );
    }
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
