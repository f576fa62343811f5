import { randomUUID } from 'node:crypto';
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
  const fresh: { id: string; candidate: RiskCandidate }[] = [];
  const known: { item: StoredItem; candidate: RiskCandidate; reopen: boolean }[] = [];
  for (const c of atRisk.values()) {
    const item = sameVersion.get(c.key);
    if (!item) {
      const id = randomUUID();
      fresh.push({ id, candidate: c });
      transitions.push({ id, from: null, to: 'observing', reason: null });
      if (c.author) newByAuthor.set(c.author, (newByAuthor.get(c.author) ?? 0) + 1);
      continue;
    }
    const reopen = observedAnew(item, c);
    if (reopen) transitions.push({ id: item.id, from: item.state, to: 'observing', reason: reopen });
    known.push({ item, candidate: c, reopen: reopen !== null });
  }
  // One statement each, not one per method: this runs inside the report's swap transaction, which on
  // PGlite holds every other request (issue 41).
  await insertItems(client, w, fresh);
  await updateItems(client, w, known);
  const opened = fresh.length;
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

async function insertItems(
  client: pg.ClientBase,
  w: CoverageRiskInput,
  fresh: readonly { id: string; candidate: RiskCandidate }[],
): Promise<void> {
  if (fresh.length === 0) return;
  const column = <T>(pick: (c: RiskCandidate) => T) => fresh.map((f) => pick(f.candidate));
  await client.query(
    `insert into risk_items (id, kind, app_id, report_id, test_type, version, requirement, class_name, method_name,
       signature, file_path, start_line, end_line, author, line_covered, line_total, changed_lines, body_hash)
     select u.id, 'coverage', $1::uuid, $2::uuid, $3::int4, $4::text, $5::text, u.class_name, u.method_name, u.signature, u.file_path,
       u.start_line, u.end_line, u.author, u.line_covered, u.line_total, u.changed_lines, u.body_hash
     from unnest($6::uuid[], $7::text[], $8::text[], $9::text[], $10::text[], $11::int4[], $12::int4[], $13::text[],
       $14::int4[], $15::int4[], $16::int4[], $17::text[])
       as u(id, class_name, method_name, signature, file_path, start_line, end_line, author, line_covered,
         line_total, changed_lines, body_hash)`,
    [
      w.appId,
      w.reportId,
      w.testType,
      w.version,
      w.requirement,
      fresh.map((f) => f.id),
      column((c) => c.className),
      column((c) => c.methodName),
      column((c) => c.signature),
      column((c) => c.filePath),
      column((c) => c.startLine),
      column((c) => c.endLine),
      column((c) => c.author),
      column((c) => c.lineCovered),
      column((c) => c.lineTotal),
      column((c) => c.changedLines),
      column((c) => c.bodyHash),
    ],
  );
}

/** Known items at risk again: their figures follow this report; those observed anew lose their judgment. */
async function updateItems(
  client: pg.ClientBase,
  w: CoverageRiskInput,
  known: readonly { item: StoredItem; candidate: RiskCandidate; reopen: boolean }[],
): Promise<void> {
  if (known.length === 0) return;
  const column = <T>(pick: (c: RiskCandidate) => T) => known.map((k) => pick(k.candidate));
  await client.query(
    `update risk_items r set report_id = $1::uuid, test_type = coalesce($2::int4, r.test_type), class_name = u.class_name,
       start_line = u.start_line, end_line = u.end_line, author = u.author, line_covered = u.line_covered,
       line_total = u.line_total, changed_lines = u.changed_lines, body_hash = u.body_hash, updated_at = now(),
       state = case when u.reopen then 'observing' else r.state end,
       judgment = case when u.reopen then null else r.judgment end,
       reason = case when u.reopen then null else r.reason end,
       assignee_id = case when u.reopen then null else r.assignee_id end,
       due_date = case when u.reopen then null else r.due_date end,
       resolved_at = case when u.reopen then null else r.resolved_at end,
       resolved_by_report_id = case when u.reopen then null else r.resolved_by_report_id end
     from unnest($3::uuid[], $4::text[], $5::int4[], $6::int4[], $7::text[], $8::int4[], $9::int4[], $10::int4[],
       $11::text[], $12::bool[])
       as u(id, class_name, start_line, end_line, author, line_covered, line_total, changed_lines, body_hash, reopen)
     where r.id = u.id`,
    [
      w.reportId,
      w.testType,
      known.map((k) => k.item.id),
      column((c) => c.className),
      column((c) => c.startLine),
      column((c) => c.endLine),
      column((c) => c.author),
      column((c) => c.lineCovered),
      column((c) => c.lineTotal),
      column((c) => c.changedLines),
      column((c) => c.bodyHash),
      known.map((k) => k.reopen),
    ],
  );
}
