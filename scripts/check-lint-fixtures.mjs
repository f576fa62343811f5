#!/usr/bin/env node
// Every lint rule has a deliberately bad file under tools/lint-fixtures that must FAIL,
// so a rule cannot silently vanish (STYLE.md).
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { againstBaseline, checkTree, RULES } from './check-boundaries.mjs';
import { enginesLeftOut } from './check-engines.mjs';

const fixtures = new URL('../tools/lint-fixtures/', import.meta.url).pathname;
const violations = checkTree(fixtures);
const found = new Set(violations.map((v) => v.rule));
const missing = Object.keys(RULES).filter((rule) => !found.has(rule));

// The baseline of known table reads accepts what it lists, and names an entry that is no longer true.
const foreignTable = violations.find((v) => v.rule === 'server-foreign-table');
const gone = { file: 'packages/server/src/modules/gone.ts', table: 'teams' };
const judged = againstBaseline(violations, foreignTable ? [foreignTable, gone] : []);
if (judged.accepted !== 1 || judged.fresh.includes(foreignTable) || judged.stale[0] !== gone) {
  missing.push('the baseline of server-foreign-table');
}

// A read side (READ_SIDES) reads its module's tables: the fixture's report-views reading reports passes.
if (violations.some((v) => v.file.includes('/modules/report-views/'))) missing.push('the read side of reports');

// Lint the bad file in a scratch folder under the project's own linter settings.
const scratch = mkdtempSync(join(tmpdir(), 'sextant-lint-'));
const { linter, javascript } = JSON.parse(readFileSync(new URL('../biome.json', import.meta.url), 'utf8'));
writeFileSync(join(scratch, 'biome.json'), JSON.stringify({ linter, javascript }));
copyFileSync(`${fixtures}biome/explicit-any.ts`, join(scratch, 'explicit-any.ts'));
const biome = spawnSync(new URL('../node_modules/.bin/biome', import.meta.url).pathname, ['lint', scratch], {
  cwd: scratch,
  encoding: 'utf8',
});
rmSync(scratch, { recursive: true, force: true });
if (biome.status === 0 || !/noExplicitAny/.test(biome.stdout + biome.stderr)) missing.push('biome noExplicitAny');

// The engines check names a locked package that wants a newer Node than the project supports (the two
// that made `npm install` warn EBADENGINE on Node 20 before issue 41), and passes one that fits.
const lockFixture = {
  packages: {
    '': { engines: { node: '>=99' } },
    'node_modules/content-disposition': { version: '3.0.0', engines: { node: '>=22' } },
    'node_modules/ok': { version: '1.0.0', engines: { node: '>=18' } },
  },
};
const leftOut = enginesLeftOut(lockFixture, '^20.19.0 || ^22.13.0 || >=24').map((p) => p.name);
if (leftOut.join() !== 'content-disposition') missing.push('check-engines');

if (missing.length > 0) {
  console.log(`lint fixtures: these rules no longer catch their bad file: ${missing.join(', ')}`);
  process.exit(1);
}
console.log(`lint fixtures: all ${Object.keys(RULES).length + 2} rules still fail their bad files`);
