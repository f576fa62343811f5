// One parse in a process of its own, so that its peak RSS is its own. Used by parse-jacoco.ts and
// parse-lcov.ts: npx tsx bench/parse-child.ts ours|saxes FILE → one JSON line on stdout.
import { createReadStream } from 'node:fs';
import { SaxesParser } from 'saxes';
import { lineColumns } from '../packages/coverage/src/index.ts';
import { readCoverageFile } from '../packages/coverage/src/node/index.ts';

const [mode, file] = process.argv.slice(2);
if (!file || (mode !== 'ours' && mode !== 'saxes')) throw new Error('usage: parse-child.ts ours|saxes FILE');

async function saxesPass(path: string): Promise<Record<string, number>> {
  // A plain SAX pass, no model: what any saxes-based reader must do at least.
  const parser = new SaxesParser();
  let elements = 0;
  parser.on('opentag', () => {
    elements++;
  });
  const decoder = new TextDecoder('utf-8', { fatal: true });
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) {
    parser.write(decoder.decode(chunk as Buffer, { stream: true }));
  }
  parser.close();
  return { elements };
}

async function ours(path: string): Promise<Record<string, unknown>> {
  const coverage = await readCoverageFile(path);
  // Counted without making the line objects the model holds packed until they are read.
  let lines = 0;
  for (const f of coverage.files) lines += lineColumns(f).length;
  return { files: coverage.files.length, lines, counters: coverage.counters };
}

const started = performance.now();
const cpuBefore = process.cpuUsage();
const result = mode === 'ours' ? await ours(file) : await saxesPass(file);
const seconds = (performance.now() - started) / 1000;
const cpu = process.cpuUsage(cpuBefore);
const cpuSeconds = (cpu.user + cpu.system) / 1e6;
const peakRssMb = process.resourceUsage().maxRSS / 1024;
process.stdout.write(`${JSON.stringify({ seconds, cpuSeconds, peakRssMb, ...result })}\n`);
