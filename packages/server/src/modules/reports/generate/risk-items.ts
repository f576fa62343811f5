import { type Coverage, counterRatio, type DiffCoverage } from '@sextant/coverage';
import type pg from 'pg';
import { type Column, insertColumns } from './bulk-insert.ts';
import { emptyColumns, pushRow } from './detail-rows.ts';

/** A changed method the report shows uncovered or below the passing grade (DESIGN §6). */
export type RiskCandidate = {
  key: string;
  className: string;
  methodName: string;
  signature: string | null;
  filePath: string;
  startLine: number;
  endLine: number;
  author: string | null;
  lineCovered: number;
  lineTotal: number;
};

/** Risk items of different reports (and versions, where lines move) are the same method by this key. */
export const riskKey = (filePath: string, name: string, signature: string | null) =>
  `${filePath}\u0000${name}\u0000${signature ?? ''}`;

/**
 * Changed methods at risk, and the keys of methods this report shows at or above the passing grade.
 * A changed method the report has no data for (an interface's abstract method) is no risk. A method
 * without coverable lines is at risk when it did not run.
 */
export function classifyChangedMethods(diff: DiffCoverage, passingGrade: number) {
  const atRisk = new Map<string, RiskCandidate>();
  const good = new Set<string>();
  for (const [index, method] of diff.incremental.methods.entries()) {
    if (!method.measured) continue;
    const key = riskKey(method.file, method.name, method.signature);
    const line = method.counters.line;
    const ratio = counterRatio(line);
    if (ratio === null ? method.covered : ratio >= passingGrade) {
      good.add(key);
      continue;
    }
    if (atRisk.has(key)) continue;
    atRisk.set(key, {
      key,
      className: method.class ?? method.file,
      methodName: method.name,
      signature: method.signature,
      filePath: method.file,
      startLine: method.startLine,
      endLine: method.endLine,
      author: diff.authors[index] ?? null,
      lineCovered: line?.covered ?? 0,
      lineTotal: line ? line.covered + line.missed : 0,
    });
  }
  for (const key of atRisk.keys()) good.delete(key);
  return { atRisk, good };
}

/** Keys of the report's own methods whose line coverage is at or above the grade (all overloads must be). */
function reportMethodsAtGrade(coverage: Coverage, passingGrade: number, wanted: ReadonlySet<string>): Set<string> {
  const verdict = new Map<string, boolean>();
  const files = new Set([...wanted].map((key) => key.slice(0, key.indexOf('\u0000'))));
  for (const file of coverage.files) {
    if (!files.has(file.path)) continue;
    for (const cls of file.classes) {
      for (const method of cls.methods) {
        const key = riskKey(file.path, method.name, method.signature);
        if (!wanted.has(key)) continue;
        const ratio = counterRatio(method.counters.line);
        const ok = ratio !== null && ratio >= passingGrade;
        verdict.set(key, (verdict.get(key) ?? true) && ok);
      }
    }
  }
  return new Set([...verdict].filter(([, ok]) => ok).map(([key]) => key));
}

type OpenItem = { id: string; report_id: string; file_path: string; method_name: string; signature: string | null };

const RISK_COLUMNS: readonly Column[] = [
  { name: 'class_name', type: 'text' },
  { name: 'method_name', type: 'text' },
  { name: 'signature', type: 'text' },
  { name: 'file_path', type: 'text' },
  { name: 'start_line', type: 'int4' },
  { name: 'end_line', type: 'int4' },
  { name: 'author', type: 'text' },
  { name: 'line_covered', type: 'int4' },
  { name: 'line_total', type: 'int4' },
];

export type RiskWrite = {
  client: pg.ClientBase;
  reportId: string;
  appId: string;
  version: string;
  coverage: Coverage;
  diff: DiffCoverage | null;
  /** Stored on every new item: the report's first requirement key (commit messages do not say which method). */
  requirement: string | null;
  passingGrade: number;
};

/**
 * Opens this report's risk items and resolves open ones (of this or earlier reports of the app) that
 * this report now shows at or above the passing grade. A re-run updates its still-open items in
 * place (a pending judgment stays pending), so no run duplicates them.
 */
export async function writeRiskItems(w: RiskWrite): Promise<{ opened: number; resolved: number }> {
  const { atRisk, good } = w.diff
    ? classifyChangedMethods(w.diff, w.passingGrade)
    : { atRisk: new Map<string, RiskCandidate>(), good: new Set<string>() };
  const open = await w.client.query<OpenItem>(
    `select id, report_id, file_path, method_name, signature from risk_items
     where app_id = $1 and state in ('observing', 'pending')`,
    [w.appId],
  );
  const keyOf = (item: OpenItem) => riskKey(item.file_path, item.method_name, item.signature);
  const elsewhere = new Set(open.rows.map(keyOf).filter((key) => !atRisk.has(key) && !good.has(key)));
  const atGrade = new Set([...good, ...reportMethodsAtGrade(w.coverage, w.passingGrade, elsewhere)]);

  const kept = new Map<string, string>();
  const resolve: string[] = [];
  const stale: string[] = [];
  for (const item of open.rows) {
    const key = keyOf(item);
    const own = item.report_id === w.reportId;
    if (own && atRisk.has(key) && !kept.has(key)) kept.set(key, item.id);
    else if (atGrade.has(key)) resolve.push(item.id);
    else if (own) stale.push(item.id);
  }
  if (resolve.length > 0) {
    await w.client.query(`update risk_items set state = 'resolved', resolved_at = now() where id = any($1::uuid[])`, [
      resolve,
    ]);
  }
  if (stale.length > 0) await w.client.query('delete from risk_items where id = any($1::uuid[])', [stale]);

  const fresh = emptyColumns(RISK_COLUMNS);
  const updates = emptyColumns([{ name: 'id', type: 'uuid' }, ...RISK_COLUMNS]);
  for (const c of atRisk.values()) {
    const row = [
      c.className,
      c.methodName,
      c.signature,
      c.filePath,
      c.startLine,
      c.endLine,
      c.author,
      c.lineCovered,
      c.lineTotal,
    ];
    const id = kept.get(c.key);
    if (id) pushRow(updates, [id, ...row]);
    else pushRow(fresh, row);
  }
  await insertColumns(
    w.client,
    'risk_items',
    [
      { column: { name: 'app_id', type: 'uuid' }, value: w.appId },
      { column: { name: 'report_id', type: 'uuid' }, value: w.reportId },
      { column: { name: 'version', type: 'text' }, value: w.version },
      { column: { name: 'requirement', type: 'text' }, value: w.requirement },
    ],
    fresh,
  );
  if (updates.rowCount > 0) {
    await w.client.query(
      `update risk_items r set class_name = u.class_name, start_line = u.start_line, end_line = u.end_line,
         author = u.author, line_covered = u.line_covered, line_total = u.line_total, version = $1, requirement = $2
       from unnest($3::uuid[], $4::text[], $5::int4[], $6::int4[], $7::text[], $8::int4[], $9::int4[])
         as u(id, class_name, start_line, end_line, author, line_covered, line_total)
       where r.id = u.id`,
      [w.version, w.requirement, ...[0, 1, 5, 6, 7, 8, 9].map((i) => updates.values[i])],
    );
  }
  return { opened: fresh.rowCount, resolved: resolve.length };
}
