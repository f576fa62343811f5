// Parse throughput and peak RSS on a JaCoCo XML of 200+ MB that JaCoCo itself wrote (bench/gen/jacoco.sh),
// against a plain saxes pass over the same file and JaCoCo's own report generation over the same classes.
// Run: npx tsx bench/parse-jacoco.ts
import { readFileSync } from 'node:fs';
import { best, input, node, program, table } from './parse-run.ts';

const out = new URL('./out/jacoco/', import.meta.url).pathname;
const { path, mb } = input(`${out}report.xml`, 'bench/gen/jacoco.sh');
const jars = ['asm', 'asm-commons', 'asm-tree', 'asm-analysis', 'org.jacoco.core', 'org.jacoco.report'];
const classpath = [`${out}bin`, ...jars.map((jar) => `/usr/share/java/${jar}.jar`)].join(':');

console.log(`JaCoCo XML: ${mb.toFixed(1)} MB`);
const ours = await best(() => node('ours', path));
const saxes = await best(() => node('saxes', path));
// JaCoCo reads the exec file, analyses the classes and writes the XML: its MB/s is of the XML it writes.
const jacoco = await best(() =>
  program('java', ['-cp', classpath, 'Report', `${out}copies/all.exec`, `${out}copies/classes`, `${out}rewritten.xml`]),
);
table(mb, [
  ['@sextant/coverage readCoverageFile (model)', ours],
  ['saxes 6 plain SAX pass (no model)', saxes],
  ['JaCoCo 0.8.6 report API (analyse + XML)', jacoco],
]);

// The figures must be the XML's own: compare with the report-level counters at the end of the file.
const tail = readFileSync(path).subarray(-2048).toString();
const own = [...tail.matchAll(/<counter type="(\w+)" missed="(\d+)" covered="(\d+)"\/>(?=(<counter|<\/report>))/g)]
  .slice(-6)
  .map(([, type, missed, covered]) => [type?.toLowerCase(), { covered: Number(covered), missed: Number(missed) }]);
const equal = JSON.stringify(Object.fromEntries(own)) === JSON.stringify(ours.detail?.counters);
console.log(`report counters equal to the XML's own: ${equal}`, JSON.stringify(Object.fromEntries(own)));
