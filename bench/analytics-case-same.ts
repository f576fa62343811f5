// Case impact and a case's methods (reports/case-reads.ts, from app_case_method_reach) against the reads they
// replaced (test/analytics/case-reads-reference.ts, over every report's case rows), on the kept database of
// bench/analytics.ts: team 2's 50 apps and app 21, five filters (none, a version, a test type, an environment,
// both), two pages of gaps, three cases. Prints how many answers are the same and any that differ.
// Run: KEEP_DB=<name> npx tsx bench/analytics-case-same.ts
// Last run (2026-11-29, PostgreSQL, full shape): same 35, differ 0; team 2 unfiltered: 506 changed methods,
// 336 reached, 400 cases to re-run, 170 gaps.
import { isDeepStrictEqual } from 'node:util';
import { openDatabase } from '../packages/server/src/db/client.ts';
import { caseImpact, caseMethods } from '../packages/server/src/modules/reports/case-reads.ts';
import { referenceCaseImpact, referenceCaseMethods } from '../packages/server/test/analytics/case-reads-reference.ts';
import { PG_SERVER } from './throwaway-database.ts';

const NAME = process.env.KEEP_DB;
if (!NAME) throw new Error('KEEP_DB names the database bench/analytics.ts seeded');
const url = new URL(PG_SERVER);
url.pathname = `/${NAME}`;
const database = await openDatabase({ url: url.toString() });
const { rows: apps } = await database.pool.query(`select a.id, a.name, a.team_id as "teamId", t.name as "teamName"
  from apps a join teams t on t.id = a.team_id where a.team_id = md5('t2')::uuid order by a.name, a.id`);
const filters: Record<string, unknown>[] = [
  {},
  { version: 'v3' },
  { testType: 1 },
  { envType: 'test' },
  { testType: 1, envType: 'staging' },
];
let same = 0,
  differ = 0;
for (const f of filters) {
  for (const scope of [
    { apps, ...f },
    { apps: apps.filter((a) => a.name === 'app-21'), ...f },
  ]) {
    for (const page of [
      { page: 1, perPage: 20 },
      { page: 3, perPage: 50 },
    ]) {
      const a = await caseImpact(database.db, scope as never, page);
      const b = await referenceCaseImpact(database.db, scope as never, page);
      if (isDeepStrictEqual(a, b)) same++;
      else {
        differ++;
        console.log(
          'impact differs',
          JSON.stringify(f),
          scope.apps.length,
          JSON.stringify(a).slice(0, 300),
          JSON.stringify(b).slice(0, 300),
        );
      }
    }
    if (scope.apps.length === 1)
      for (const k of ['CASE-0', 'CASE-3', 'CASE-7']) {
        const a = await caseMethods(database.db, scope as never, k);
        const b = await referenceCaseMethods(database.db, scope as never, k);
        if (isDeepStrictEqual(a, b)) same++;
        else {
          differ++;
          console.log(
            'methods differ',
            k,
            JSON.stringify(f),
            JSON.stringify(a).slice(0, 300),
            JSON.stringify(b).slice(0, 300),
          );
        }
      }
  }
}
const sizes = await caseImpact(database.db, { apps } as never, { page: 1, perPage: 20 });
console.log(
  `same ${same}, differ ${differ}; team 2 unfiltered: ${sizes.changedMethods} changed, ${sizes.reachedMethods} reached, ${sizes.reruns.length} reruns, ${sizes.gaps.total} gaps`,
);
await database.close();
