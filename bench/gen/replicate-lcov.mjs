// Concatenates real LCOV tracefiles and repeats their records under renamed paths (copy-N/…) until the output
// reaches the wanted size: the records stay exactly as c8 wrote them, only SF paths differ between copies.
// Usage: node replicate-lcov.mjs OUT MIN_MB BASE.info...
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';

const [out, minMb, ...bases] = process.argv.slice(2);
const base = bases.map((path) => readFileSync(path, 'utf8')).join('');
const minBytes = Number(minMb) * 1024 * 1024;
const fd = openSync(out, 'w');
let written = 0;
for (let copy = 0; written < minBytes; copy++) {
  const text = copy === 0 ? base : base.replace(/^SF:(\/?)/gm, `SF:$1copy-${copy}/`);
  written += writeSync(fd, text);
}
closeSync(fd);
console.log(`${out}: ${(written / 1e6).toFixed(1)} MB`);
