import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { riskItemHistory, riskItems } from '../../db/schema/index.ts';
import type { Executor } from '../audit/service.ts';
import { type TraceRiskCandidate, traceRiskKey } from './trace-writer.ts';

type History = typeof riskItemHistory.$inferInsert;
type StoredTraceRisk = Awaited<ReturnType<typeof storedTraceRisks>>[number];

/** States in which a trace risk is still open, so a week without it resolves it. */
const stillOpen = (i: StoredTraceRisk) =>
  i.state === 'observing' || i.state === 'pending' || i.judgment === 'needs-test';

/**
 * The risks module's SQL for exception and performance risks (issue 34), apart from the coverage
 * items' repository: it holds the trace risks the latest spans show, in one transaction — a new group
 * opens an observing item, a known one takes the latest figures (a resolved one seen again is observed
 * anew), an open item no longer seen resolves. Every transition goes into the history (actor null).
 */
export class TraceRiskStore {
  constructor(private readonly db: Db) {}

  record(found: TraceRiskCandidate[]): Promise<{ opened: number; resolved: number }> {
    return this.db.transaction(async (tx) => {
      const stored = await storedTraceRisks(tx);
      const known = new Map(stored.map((i) => [traceRiskKey(i.appId, i.kind, i.iface, i.what), i]));
      const seen = new Set(found.map((c) => traceRiskKey(c.appId, c.kind, c.interface, c.what)));
      const history: History[] = [];
      for (const c of found) {
        const item = known.get(traceRiskKey(c.appId, c.kind, c.interface, c.what));
        history.push(...(item ? await refresh(tx, item, c) : await open(tx, c)));
      }
      const gone = stored.filter((i) => !seen.has(traceRiskKey(i.appId, i.kind, i.iface, i.what)) && stillOpen(i));
      history.push(...(await resolve(tx, gone)));
      if (history.length > 0) await tx.insert(riskItemHistory).values(history);
      return { opened: history.filter((h) => h.fromState === null).length, resolved: gone.length };
    });
  }
}

function storedTraceRisks(tx: Executor) {
  return tx
    .select({
      id: riskItems.id,
      appId: riskItems.appId,
      kind: riskItems.kind,
      iface: riskItems.className,
      what: riskItems.methodName,
      state: riskItems.state,
      judgment: riskItems.judgment,
    })
    .from(riskItems)
    .where(inArray(riskItems.kind, ['exception', 'performance']))
    .for('update');
}

/** The figures a trace risk takes from the latest spans. */
function factsOf(c: TraceRiskCandidate) {
  return {
    version: c.version,
    occurrences: c.occurrences,
    changedLines: c.occurrences,
    firstSeenAt: c.firstSeen,
    lastSeenAt: c.lastSeen,
    sampleTraceId: c.sampleTraceId,
    p95Ms: c.p95Ms,
    updatedAt: new Date(),
  };
}

async function open(tx: Executor, c: TraceRiskCandidate): Promise<History[]> {
  const [row] = await tx
    .insert(riskItems)
    .values({
      ...factsOf(c),
      kind: c.kind,
      appId: c.appId,
      className: c.interface,
      methodName: c.what,
      filePath: c.interface,
      lineCovered: 0,
      lineTotal: 0,
    })
    .returning({ id: riskItems.id });
  return [{ riskItemId: (row as { id: string }).id, fromState: null, toState: 'observing' }];
}

async function refresh(tx: Executor, item: StoredTraceRisk, c: TraceRiskCandidate): Promise<History[]> {
  const again = item.state === 'resolved';
  const reopened = {
    state: 'observing',
    judgment: null,
    reason: null,
    resolvedAt: null,
    assigneeId: null,
    dueDate: null,
  };
  await tx
    .update(riskItems)
    .set(again ? { ...factsOf(c), ...reopened } : factsOf(c))
    .where(eq(riskItems.id, item.id));
  return again
    ? [{ riskItemId: item.id, fromState: 'resolved', toState: 'observing', reason: 'Seen again in traces.' }]
    : [];
}

async function resolve(tx: Executor, gone: StoredTraceRisk[]): Promise<History[]> {
  if (gone.length === 0) return [];
  const now = new Date();
  await tx
    .update(riskItems)
    .set({ state: 'resolved', resolvedAt: now, updatedAt: now })
    .where(
      inArray(
        riskItems.id,
        gone.map((i) => i.id),
      ),
    );
  return gone.map((i) => ({
    riskItemId: i.id,
    fromState: i.state,
    toState: 'resolved',
    reason: 'Not seen in the traces of the last seven days.',
  }));
}
