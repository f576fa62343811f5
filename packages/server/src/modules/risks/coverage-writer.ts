import type pg from 'pg';
import type { CoverageRiskInput } from '../reports/generate/index.ts';
import { classifyChangedMethods, type RiskCandidate, reportMethodsAtGrade, riskKey } from './classify.ts';

type StoredItem = {
  id: string;
  version: string;
  file_path: string;
  method_name: string;
  signature: string | null;
  state: string;
  judgment: string | null;
  body_hash: string | null;
  author: string | null;
};

type Transition = { id: string; from: string | null; to: string; reason: string | null };

export type CoverageWrite = { opened: number; resolved: number; newByAuthor: Map<string, number> };

/**
 * Records a report's coverage risks in the report's own transaction (issue 34): one item per changed
 * method and app version (a second report of the version updates it, never a duplicate); the
 * version's open items (observing, pending, judged "needs test") the report shows at the grade
 * resolve, naming the report (another version's report is about other code and leaves them);
 * a resolved, accepted or false-positive item at risk again is observed anew only when its body changed.
 * Every transition goes into the item's history.
 */
export async function writeCoverageRisks(client: pg.ClientBase, w: CoverageRiskInput): Promise<CoverageWrite> {
  const { atRisk, good } = w.diff
    ? classifyChangedMethods(w.diff, w.passingGrade)
    : { atRisk: new Map<string, RiskCandidate>(), good: new Set<string>() };
  const stored = await client.query<StoredItem>(
    `select id, version, file_path, method_name, signature, state, judgment, body_hash, author from risk_items
     where app_id = $1 and kind = 'coverage' and version = $2
     for update`,
    [w.appId, w.version],
  );
  const keyOf = (item: StoredItem) => riskKey(item.file_path, item.method_name, item.signature);
  const sameVersion = new Map(stored.rows.map((i) => [keyOf(i), i]));
  const elsewhere = new Set(stored.rows.map(keyOf).filter((key) => !atRisk.has(key) && !good.has(key)));
  const atGrade = new Set([...good, ...reportMethodsAtGrade(w.coverage, w.passingGrade, elsewhere)]);

  const transitions: Transition[] = [];
  const resolve: string[] = [];
  for (const item of stored.rows) {
    const open = item.state === 'observing' || item.state === 'pending' || item.judgment === 'needs-test';
    if (item.state === 'resolved' || !open || !atGrade.has(keyOf(item))) continue;
    resolve.push(item.id);
    transitions.push({ id: item.id, from: item.state, to: 'resolved', reason: 'Covered at the passing grade.' });
  }
  if (resolve.length > 0) {
    await client.query(
      `update risk_items set state = 'resolved', resolved_at = now(), resolved_by_report_id = $2, updated_at = now()
       where id = any($1::uuid[])`,
      [resolve, w.reportId],
    );
  }

  const newByAuthor = new Map<string, number>();
  let opened = 0;
  for (const c of atRisk.values()) {
    const item = sameVersion.get(c.key);
    if (!item) {
      const id = await insertItem(client, w, c);
      transitions.push({ id, from: null, to: 'observing', reason: null });
      opened++;
      if (c.author) newByAuthor.set(c.author, (newByAuthor.get(c.author) ?? 0) + 1);
      continue;
    }
    const reopen = observedAnew(item, c);
    if (reopen) transitions.push({ id: item.id, from: item.state, to: 'observing', reason: reopen });
    await client.query(
      `update risk_items set report_id = $2, class_name = $3, start_line = $4, end_line = $5, author = $6,
         line_covered = $7, line_total = $8, changed_lines = $9, body_hash = $10, test_type = coalesce($11, test_type),
         updated_at = now()${reopen ? `, state = 'observing', judgment = null, reason = null, assignee_id = null, due_date = null, resolved_at = null, resolved_by_report_id = null` : ''}
       where id = $1`,
      [
        item.id,
        w.reportId,
        c.className,
        c.startLine,
        c.endLine,
        c.author,
        c.lineCovered,
        c.lineTotal,
        c.changedLines,
        c.bodyHash,
        w.testType,
      ],
    );
  }
  if (transitions.length > 0) {
    await client.query(
      `insert into risk_item_history (risk_item_id, report_id, from_state, to_state, reason)
       select u.id, $1, u.from_state, u.to_state, u.reason
       from unnest($2::uuid[], $3::text[], $4::text[], $5::text[]) as u(id, from_state, to_state, reason)`,
      [
        w.reportId,
        transitions.map((t) => t.id),
        transitions.map((t) => t.from),
        transitions.map((t) => t.to),
        transitions.map((t) => t.reason),
      ],
    );
  }
  return { opened, resolved: resolve.length, newByAuthor };
}

/** Why a known item at risk again is observed anew, or null when it keeps its state and judgment. */
function observedAnew(item: StoredItem, c: RiskCandidate): string | null {
  const changed = item.body_hash !== null && c.bodyHash !== null && item.body_hash !== c.bodyHash;
  if (!changed) return null;
  // Covered once stays resolved: a report of another test type that does not run the method leaves it so.
  if (item.state === 'resolved') return 'The method changed since it was covered.';
  if (item.state === 'judged' && item.judgment !== 'needs-test') return 'The method changed since it was judged.';
  return null;
}

async function insertItem(client: pg.ClientBase, w: CoverageRiskInput, c: RiskCandidate): Promise<string> {
  const { rows } = await client.query<{ id: string }>(
    `insert into risk_items (kind, app_id, report_id, test_type, version, class_name, method_name, signature,
       file_path, start_line, end_line, author, requirement, line_covered, line_total, changed_lines, body_hash)
     values ('coverage', $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16) returning id`,
    [
      w.appId,
      w.reportId,
      w.testType,
      w.version,
      c.className,
      c.methodName,
      c.signature,
      c.filePath,
      c.startLine,
      c.endLine,
      c.author,
      w.requirement,
      c.lineCovered,
      c.lineTotal,
      c.changedLines,
      c.bodyHash,
    ],
  );
  return (rows[0] as { id: string }).id;
}
