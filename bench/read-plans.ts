// The plans of the report list's and the detail table's reads (issue 41): for every sort the screens offer,
// both directions, the statements searchReports and getReportDetails really send (captured from the read
// models), run under EXPLAIN (ANALYZE, BUFFERS) on the bench data of bench/search-reports.ts. Printed per
// statement: whether a Sort node appears, the rows the scans read, the shared buffers touched, and the
// execution time. Rows and buffers do not depend on the machine's load; the time does (load average beside).
// Run: npx tsx bench/read-plans.ts   (SCALE=0.2 for a fifth of the rows; KEEP_DB=name reuses a loaded database;
// PARTS=search or PARTS=details for one screen's reads)
import { createHash, randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import pg from 'pg';
import {
  DETAIL_SORTS,
  REPORT_SORTS,
  ReportDetailsQuerySchema,
  SearchReportsSchema,
} from '../packages/api/src/reports.ts';
import type { Db } from '../packages/server/src/db/client.ts';
import { openDatabase } from '../packages/server/src/db/client.ts';
import { reportDetails } from '../packages/server/src/modules/report-views/report-details.ts';
import { searchReports } from '../packages/server/src/modules/report-views/search-reports.ts';
import { SearchTotals } from '../packages/server/src/modules/report-views/search-totals.ts';
import { FULL_SHAPE, LARGE_REPORT_NO, loadReportRows } from './gen/report-rows.ts';

const PG_SERVER = process.env.PG_SERVER_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SCALE = Number(process.env.SCALE ?? 1);
const shape = {
  ...FULL_SHAPE,
  apps: Math.max(10, Math.round(FULL_SHAPE.apps * SCALE)),
  reports: Math.round(FULL_SHAPE.reports * SCALE),
  largeReportClasses: Math.round(FULL_SHAPE.largeReportClasses * SCALE),
};
/** Report n has the id md5('r' || n)::uuid (gen/report-rows.ts). */
const largeReportId = createHash('md5')
  .update(`r${LARGE_REPORT_NO}`)
  .digest('hex')
  .replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');

type Captured = { text: string; values: unknown[] };

/** A Db whose pool records every statement the read model sends (and still answers it). */
function capturing(pool: pg.Pool): { db: Db; taken: Captured[] } {
  const taken: Captured[] = [];
  const client = {
    query: (config: { text: string; values?: unknown[] }) => {
      taken.push({ text: config.text, values: config.values ?? [] });
      return pool.query({ text: config.text, values: config.values });
    },
  };
  Object.setPrototypeOf(client, pg.Pool.prototype);
  return { db: { $client: client } as unknown as Db, taken };
}

type PlanNode = {
  'Node Type': string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  Plans?: PlanNode[];
};

function walk(node: PlanNode, visit: (n: PlanNode) => void): void {
  visit(node);
  for (const child of node.Plans ?? []) walk(child, visit);
}

async function explain(pool: pg.Pool, statement: Captured) {
  const result = await pool.query({
    text: `explain (analyze, buffers, format json) ${statement.text}`,
    values: statement.values,
  });
  const plans = result.rows[0]?.['QUERY PLAN'] as { Plan: PlanNode; 'Execution Time': number }[] | undefined;
  const root = plans?.[0];
  if (!root) throw new Error('no plan');
  let sorted = false;
  let scanned = 0;
  walk(root.Plan, (n) => {
    if (n['Node Type'] === 'Sort') sorted = true;
    if (/Scan/.test(n['Node Type'])) scanned += (n['Actual Rows'] ?? 0) * (n['Actual Loops'] ?? 1);
  });
  const buffers = (root.Plan['Shared Hit Blocks'] ?? 0) + (root.Plan['Shared Read Blocks'] ?? 0);
  return { sorted, scanned, buffers, ms: root['Execution Time'] };
}

async function main(): Promise<void> {
  const admin = new pg.Client({ connectionString: PG_SERVER });
  await admin.connect();
  const keep = process.env.KEEP_DB;
  const name = keep ?? `sx_reads_scale_plans_${randomBytes(4).toString('hex')}`;
  const exists = (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;
  if (!exists) await admin.query(`create database ${name}`);
  const target = new URL(PG_SERVER);
  target.pathname = `/${name}`;
  const database = await openDatabase({ url: target.toString() });
  try {
    if (!exists) {
      const counts = await loadReportRows(database.pool, shape);
      await database.pool.query('vacuum analyze reports');
      await database.pool.query('vacuum analyze report_details');
      process.stdout.write(`loaded ${counts.reports} reports, ${counts.details} detail rows into ${name}\n`);
    }
    const { db, taken } = capturing(database.pool);
    const rows: string[] = [];
    const report = async (label: string, run: () => Promise<unknown>) => {
      taken.length = 0;
      await run();
      for (const statement of taken.filter((s) => !/count\(\*\)|^explain/.test(s.text))) {
        const plan = await explain(database.pool, statement);
        const line =
          `| ${label} | ${plan.sorted ? 'sort' : 'index walk'} | ${plan.scanned} | ${plan.buffers} | ` +
          `${plan.ms.toFixed(2)} | ${loadavg()[0]?.toFixed(1)} |`;
        rows.push(line);
        process.stdout.write(`${line}\n`);
      }
    };
    const parts = (process.env.PARTS ?? 'search,details').split(',');
    for (const sortBy of parts.includes('search') ? REPORT_SORTS : []) {
      for (const sortDesc of [false, true]) {
        for (const page of [1, 20]) {
          const query = SearchReportsSchema.parse({ sortBy, sortDesc, page });
          await report(`search ${sortBy} ${sortDesc ? 'desc' : 'asc'} page ${page}`, () =>
            searchReports(db, query, new SearchTotals(0)),
          );
        }
      }
    }
    for (const sortBy of parts.includes('details') ? DETAIL_SORTS : []) {
      for (const sortDesc of [false, true]) {
        const first = ReportDetailsQuerySchema.parse({
          reportId: largeReportId,
          perPage: '50',
          sortBy,
          sortDesc: String(sortDesc),
        });
        const page = await reportDetails(db, first);
        await report(`details ${sortBy} ${sortDesc ? 'desc' : 'asc'} first 50`, () => reportDetails(db, first));
        // Deep: the cursor 40 pages in (2,000 rows).
        let next = page.next;
        for (let i = 0; i < 39 && next; i++) {
          next = (await reportDetails(db, { ...first, after: next })).next;
        }
        if (next) {
          await report(`details ${sortBy} ${sortDesc ? 'desc' : 'asc'} page 41 (keyset)`, () =>
            reportDetails(db, { ...first, after: next ?? undefined }),
          );
        }
      }
    }
    process.stdout.write(
      `\n${shape.reports + 1} reports, a ${shape.largeReportClasses}-class report; PostgreSQL\n` +
        '| statement | plan | rows scanned | buffers | exec ms | load avg |\n|---|---|---|---|---|---|\n' +
        `${rows.join('\n')}\n`,
    );
  } finally {
    await database.close();
    if (!keep) await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

await main();
