// The JavaScript/TypeScript scanner (packages/coverage/src/methods/js-scan) against tree-sitter on
// every .js/.mjs/.cjs/.ts/.mts/.cts file (not .d.ts, none over 3 MB) under the folders given
// (default: node_modules): how many files it answers exactly as tree-sitter does (every body
// hashed), how many it hands over and why, how many differ (must be none, except where
// tree-sitter's own parse has an error: those are counted apart), and both throughputs, one thread,
// the code bundled as the CLI runs it (bundled.ts).
// Run: npx tsx bench/scanner-vs-tree-sitter.ts [folder...]   (node_modules: ~10 min)
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Parser } from 'web-tree-sitter';
import { bundled } from './bundled.ts';

const { createParser, scanScript, languageOfPath, otherLanguageMethods, HASH_ALL, loadCompiledTokenizer } =
  await bundled<typeof import('./methods-entry.ts')>('methods-entry.ts');
// The scanner tokenizes as in the CLI: with the WebAssembly build when there is one.
loadCompiledTokenizer();

const MAX_BYTES = 3_000_000;
const folders = process.argv.slice(2);

function sources(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .map((name) => join(folder, name))
    .filter((path) => {
      const language = languageOfPath(path);
      return (language === 'javascript' || language === 'typescript') && isSmallFile(path);
    })
    .sort();
}

function isSmallFile(path: string): boolean {
  try {
    const stat = statSync(path);
    return stat.isFile() && stat.size <= MAX_BYTES;
  } catch {
    return false; // a broken link
  }
}

const parsers = {
  javascript: await createParser('javascript'),
  typescript: await createParser('typescript'),
} satisfies Record<string, Parser>;

for (const language of ['javascript', 'typescript'] as const) {
  const files = (folders.length > 0 ? folders : ['node_modules'])
    .flatMap(sources)
    .filter((p) => languageOfPath(p) === language);
  if (files.length === 0) {
    console.log(`${language}: no files`);
    continue;
  }
  let bytes = 0;
  let scanSeconds = 0;
  let treeSeconds = 0;
  let same = 0;
  let treeErrors = 0;
  const handedOver = new Map<string, number>();
  const differing: string[] = [];
  for (const path of files) {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      continue; // gone since the listing (a build's output replaced)
    }
    bytes += Buffer.byteLength(text);
    let start = performance.now();
    const scanned = scanScript(text, HASH_ALL, language === 'typescript');
    scanSeconds += (performance.now() - start) / 1000;
    start = performance.now();
    const tree = parsers[language].parse(text);
    if (!tree) throw new Error(`tree-sitter gave no tree for ${path}`);
    const expected = otherLanguageMethods(language, tree, text, HASH_ALL);
    treeSeconds += (performance.now() - start) / 1000;
    const hasError = tree.rootNode.hasError;
    tree.delete();
    if ('unsupported' in scanned) handedOver.set(scanned.unsupported, (handedOver.get(scanned.unsupported) ?? 0) + 1);
    else if (JSON.stringify(scanned.methods) === JSON.stringify(expected)) same++;
    else if (hasError) treeErrors++;
    else differing.push(path);
  }
  const megabytes = bytes / 1e6;
  const handed = [...handedOver.values()].reduce((a, b) => a + b, 0);
  console.log(`${language}: ${files.length} files, ${megabytes.toFixed(1)} MB`);
  console.log(`  same methods as tree-sitter: ${same}; handed over: ${handed}; differing: ${differing.length}`);
  console.log(`  differing where tree-sitter's parse has an error (not counted against the scanner): ${treeErrors}`);
  for (const [reason, count] of [...handedOver].sort((a, b) => b[1] - a[1]))
    console.log(`    handed over, ${reason}: ${count}`);
  for (const path of differing) console.log(`    DIFFERS: ${path}`);
  console.log(
    `  scanner ${(megabytes / scanSeconds).toFixed(1)} MB/s, tree-sitter (parse + walk) ${(megabytes / treeSeconds).toFixed(1)} MB/s`,
  );
  if (differing.length > 0) process.exitCode = 1;
}
