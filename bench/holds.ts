// Summary of PGlite holds (`openDatabase({ traceHolds: true })`, packages/server/src/db/pglite-holds.mjs):
// how long one connection kept the embedded engine while every other request waited (issue 41: < 200 ms).
import type { Hold } from '../packages/server/src/db/client.ts';

/** Holds of one kind of statement (or transaction): how many, and the engine thread's CPU and wall ms. */
export type HoldGroup = {
  what: string;
  count: number;
  medianCpuMs: number;
  maxCpuMs: number;
  maxMs: number;
  maxStatements: number;
};

export type HoldSummary = {
  count: number;
  /** The engine thread's CPU time over all holds, ms. */
  totalCpuMs: number;
  over100ms: number;
  over200ms: number;
  /** The kinds of hold with the largest CPU time first (the figure load inflates least). */
  groups: HoldGroup[];
};

/** A hold's kind: its statement, or for a transaction the statement after its `begin`. */
function kindOf(h: Hold): string {
  const first = h.sql[0] ?? '?';
  const what = /^begin/i.test(first) ? `transaction: ${h.sql[1] ?? ''}` : first;
  return what.slice(0, 90);
}

export function summariseHolds(holds: readonly Hold[], top = 8): HoldSummary {
  const byKind = new Map<string, Hold[]>();
  for (const h of holds) byKind.set(kindOf(h), [...(byKind.get(kindOf(h)) ?? []), h]);
  const groups = [...byKind].map(([what, list]): HoldGroup => {
    const cpu = list.map((h) => h.cpuMs).sort((a, b) => a - b);
    return {
      what,
      count: list.length,
      medianCpuMs: Math.round(cpu[cpu.length >> 1] ?? 0),
      maxCpuMs: Math.round(cpu.at(-1) ?? 0),
      maxMs: Math.round(Math.max(...list.map((h) => h.ms))),
      maxStatements: Math.max(...list.map((h) => h.statements)),
    };
  });
  return {
    count: holds.length,
    totalCpuMs: Math.round(holds.reduce((sum, h) => sum + h.cpuMs, 0)),
    over100ms: holds.filter((h) => h.ms > 100).length,
    over200ms: holds.filter((h) => h.ms > 200).length,
    groups: groups.sort((a, b) => b.maxCpuMs - a.maxCpuMs).slice(0, top),
  };
}

export function printHolds(title: string, s: HoldSummary): void {
  process.stdout.write(
    `${title}: ${s.count} holds, ${s.over100ms} over 100 ms and ${s.over200ms} over 200 ms of wall time; ` +
      `engine CPU ${s.totalCpuMs} ms in all. Longest kinds by the engine thread's CPU:\n` +
      '  count | CPU median | CPU max | wall max | statements | what\n',
  );
  for (const g of s.groups) {
    process.stdout.write(
      `  ${String(g.count).padStart(5)} | ${String(g.medianCpuMs).padStart(7)} ms | ${String(g.maxCpuMs).padStart(4)} ms | ` +
        `${String(g.maxMs).padStart(5)} ms | ${String(g.maxStatements).padStart(10)} | ${g.what}\n`,
    );
  }
}
