/**
 * Writes a small JaCoCo XML report for tests, with counters as JaCoCo derives them from its
 * per-instruction data (each line with branches standing for one branching instruction):
 * INSTRUCTION and BRANCH sum the lines; LINE counts distinct lines, covered when an instruction
 * on it ran; COMPLEXITY is max(0, cb - 1) covered and max(0, bt - covered - 1) missed per
 * branching line, plus one for the method, covered when it ran.
 */
export type Row = { nr: number; mi: number; ci: number; mb?: number; cb?: number };
export type MethodSpec = { name: string; desc?: string; line: number; rows: Row[] };
export type ClassSpec = { name: string; methods: MethodSpec[] };

type Sums = { instruction: number[]; branch: number[]; line: number[]; complexity: number[]; method: number[] };
const KINDS = ['instruction', 'branch', 'line', 'complexity', 'method'] as const;

function linesOf(rows: readonly Row[]): Map<number, Required<Row>> {
  const byLine = new Map<number, Required<Row>>();
  for (const r of rows) {
    const sum = byLine.get(r.nr) ?? { nr: r.nr, mi: 0, ci: 0, mb: 0, cb: 0 };
    byLine.set(r.nr, {
      nr: r.nr,
      mi: sum.mi + r.mi,
      ci: sum.ci + r.ci,
      mb: sum.mb + (r.mb ?? 0),
      cb: sum.cb + (r.cb ?? 0),
    });
  }
  return byLine;
}

function lineSums(rows: readonly Row[]): Pick<Sums, 'instruction' | 'branch' | 'line'> {
  const lines = [...linesOf(rows).values()];
  const covered = lines.filter((l) => l.ci > 0).length;
  return {
    instruction: [lines.reduce((s, l) => s + l.mi, 0), lines.reduce((s, l) => s + l.ci, 0)],
    branch: [lines.reduce((s, l) => s + l.mb, 0), lines.reduce((s, l) => s + l.cb, 0)],
    line: [lines.length - covered, covered],
  };
}

function methodSums(m: MethodSpec): Sums {
  const sums = lineSums(m.rows);
  const ran = (sums.instruction[1] as number) > 0;
  let complexity = [ran ? 0 : 1, ran ? 1 : 0];
  for (const r of m.rows) {
    const total = (r.mb ?? 0) + (r.cb ?? 0);
    if (total < 2) continue;
    const c = Math.max(0, (r.cb ?? 0) - 1);
    complexity = [(complexity[0] as number) + Math.max(0, total - c - 1), (complexity[1] as number) + c];
  }
  return { ...sums, complexity, method: [ran ? 0 : 1, ran ? 1 : 0] };
}

function counters(sums: Partial<Sums> & { class?: number[] }): string {
  return Object.entries(sums)
    .filter(([, [missed, covered]]) => (missed as number) + (covered as number) > 0)
    .map(
      ([kind, [missed, covered]]) => `<counter type="${kind.toUpperCase()}" missed="${missed}" covered="${covered}"/>`,
    )
    .join('');
}

function add(into: number[], from: readonly number[]): void {
  into[0] = (into[0] as number) + (from[0] as number);
  into[1] = (into[1] as number) + (from[1] as number);
}

export function jacocoXml(classes: readonly ClassSpec[], file = 'A.java'): string {
  const allRows = classes.flatMap((c) => c.methods.flatMap((m) => m.rows));
  const fileSums: Sums & { class: number[] } = {
    ...lineSums(allRows),
    complexity: [0, 0],
    method: [0, 0],
    class: [0, 0],
  };
  const classXml = classes.map((c) => {
    const classSums: Sums & { class: number[] } = {
      ...lineSums(c.methods.flatMap((m) => m.rows)),
      complexity: [0, 0],
      method: [0, 0],
      class: [0, 0],
    };
    const methodXml = c.methods.map((m) => {
      const sums = methodSums(m);
      add(classSums.complexity, sums.complexity);
      add(classSums.method, sums.method);
      return `<method name="${m.name}" desc="${m.desc ?? '()V'}" line="${m.line}">${counters(sums)}</method>`;
    });
    if (c.methods.length > 0) classSums.class = (classSums.method[1] as number) > 0 ? [0, 1] : [1, 0];
    for (const kind of [...KINDS.slice(3), 'class'] as const) add(fileSums[kind], classSums[kind]);
    return `<class name="${c.name}" sourcefilename="${file}">${methodXml.join('')}${counters(classSums)}</class>`;
  });
  const lineXml = [...linesOf(allRows).values()]
    .sort((a, b) => a.nr - b.nr)
    .map((l) => `<line nr="${l.nr}" mi="${l.mi}" ci="${l.ci}" mb="${l.mb}" cb="${l.cb}"/>`)
    .join('');
  const fileCounters = counters(fileSums);
  return `<report name="r"><package name="p">${classXml.join('')}<sourcefile name="${file}">${lineXml}${fileCounters}</sourcefile>${fileCounters}</package>${fileCounters}</report>`;
}
