import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCoverage } from '../formats/parser.ts';
import { COUNTER_KINDS, type CounterBounds, type Counters } from '../model/coverage.ts';
import { type ClassSpec, jacocoXml, type Row } from './jacoco-run.fixture.ts';
import { mergeCoverage } from './merge.ts';

// Simulated JaCoCo runs with instruction and branch identity: each run covers a subset (a bit
// mask) of each row's instructions and branches. JaCoCo's merged report is the report of the
// union of the masks. mergeCoverage sees only the runs' XML; every figure it gives must be the
// union's where it claims exactness, and bracket it where it gives bounds.

type RowShape = { nr: number; instructions: number; branches: number };
type Shape = { name: string; methods: { name: string; rows: RowShape[] }[] }[];
type Masks = { instructions: number; branches: number }[][][]; // class → method → row

const rowShape = fc.record({
  nr: fc.integer({ min: 1, max: 6 }),
  instructions: fc.integer({ min: 1, max: 4 }),
  branches: fc.constantFrom(0, 0, 2, 3, 4),
});

const shape: fc.Arbitrary<Shape> = fc
  .array(fc.array(fc.array(rowShape, { minLength: 1, maxLength: 3 }), { minLength: 0, maxLength: 3 }), {
    minLength: 1,
    maxLength: 2,
  })
  .map((classes) =>
    classes.map((methods, c) => ({
      name: `p/C${c}`,
      methods: methods.map((rows, m) => ({ name: `m${m}`, rows })),
    })),
  );

const masksFor = (s: Shape): fc.Arbitrary<Masks> =>
  fc.tuple(
    ...s.map((cls) =>
      fc.tuple(
        ...cls.methods.map((method) =>
          fc.tuple(
            ...method.rows.map((row) =>
              fc.record({
                instructions: fc.integer({ min: 0, max: 2 ** row.instructions - 1 }),
                branches: fc.integer({ min: 0, max: 2 ** row.branches - 1 }),
              }),
            ),
          ),
        ),
      ),
    ),
  );

const bits = (mask: number) => mask.toString(2).replaceAll('0', '').length;

function report(s: Shape, masks: Masks): ReturnType<typeof parseCoverage> {
  const classes: ClassSpec[] = s.map((cls, c) => ({
    name: cls.name,
    methods: cls.methods.map((method, m) => ({
      name: method.name,
      line: method.rows[0]?.nr ?? 1,
      rows: method.rows.map((row, r): Row => {
        const mask = masks[c]?.[m]?.[r] ?? { instructions: 0, branches: 0 };
        // A branch taken means its instruction ran.
        const instructions = mask.branches > 0 ? mask.instructions | 1 : mask.instructions;
        const ci = bits(instructions);
        const cb = bits(mask.branches);
        return { nr: row.nr, ci, mi: row.instructions - ci, cb, mb: row.branches - cb };
      }),
    })),
  }));
  return parseCoverage(jacocoXml(classes));
}

function union(a: Masks, b: Masks): Masks {
  return a.map((cls, c) =>
    cls.map((method, m) =>
      method.map((row, r) => {
        const other = b[c]?.[m]?.[r] ?? { instructions: 0, branches: 0 };
        return { instructions: row.instructions | other.instructions, branches: row.branches | other.branches };
      }),
    ),
  );
}

type Bounded = { counters: Counters; bounds?: CounterBounds };

function expectBrackets(ours: Bounded, truth: Bounded, where: string): void {
  for (const kind of COUNTER_KINDS) {
    const mine = ours.counters[kind];
    const real = truth.counters[kind];
    const atMost = ours.bounds?.[kind]?.coveredAtMost;
    if (atMost === undefined) {
      expect(mine, `${where} ${kind}`).toEqual(real);
      continue;
    }
    expect(mine?.covered, `${where} ${kind}`).toBeLessThanOrEqual(real?.covered ?? 0);
    expect(atMost, `${where} ${kind}`).toBeGreaterThanOrEqual(real?.covered ?? 0);
  }
}

const runs = shape.chain((s) => fc.tuple(fc.constant(s), masksFor(s), masksFor(s), masksFor(s)));

describe('mergeCoverage of JaCoCo runs (simulated with instruction identity)', () => {
  it('is exact where it says so and brackets JaCoCo’s union everywhere else', () => {
    fc.assert(
      fc.property(runs, ([s, a, b]) => {
        const merged = mergeCoverage([report(s, a), report(s, b)]);
        const truth = report(s, union(a, b));
        expectBrackets(merged, truth, 'report');
        for (const [f, file] of merged.files.entries()) {
          const real = truth.files[f]!;
          expectBrackets(file, real, file.path);
          for (const [i, line] of file.lines.entries()) {
            const r = real.lines[i]!;
            expect(line.hits > 0).toBe(r.hits > 0);
            expect(line.instructionsCovered).toBeLessThanOrEqual(r.instructionsCovered!);
            expect(line.bounds?.instruction?.coveredAtMost ?? line.instructionsCovered).toBeGreaterThanOrEqual(
              r.instructionsCovered!,
            );
            expect(line.bounds?.branch?.coveredAtMost ?? line.branchesCovered).toBeGreaterThanOrEqual(
              r.branchesCovered,
            );
          }
          for (const [c, cls] of file.classes.entries()) {
            expectBrackets(cls, real.classes[c]!, cls.name);
            for (const [m, method] of cls.methods.entries()) {
              expectBrackets(method, real.classes[c]!.methods[m]!, `${cls.name}.${method.name}`);
            }
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('is commutative', () => {
    fc.assert(
      fc.property(runs, ([s, a, b]) => {
        expect(mergeCoverage([report(s, a), report(s, b)])).toEqual(mergeCoverage([report(s, b), report(s, a)]));
      }),
    );
  });

  // A merged report keeps bounds, not the runs' data, so merging in stages can know less than
  // merging at once: a staged bound may be wider. Exact figures agree however the runs are grouped.
  it('is associative where exact, and every grouping brackets the union of the three runs', () => {
    fc.assert(
      fc.property(runs, ([s, a, b, c]) => {
        const [x, y, z] = [report(s, a), report(s, b), report(s, c)];
        const truth = report(s, union(union(a, b), c));
        for (const merged of [
          mergeCoverage([mergeCoverage([x, y]), z]),
          mergeCoverage([x, mergeCoverage([y, z])]),
          mergeCoverage([x, y, z]),
        ]) {
          expectBrackets(merged, truth, 'report');
          merged.files.forEach((file, f) => {
            file.classes.forEach((cls, k) => {
              cls.methods.forEach((method, m) => {
                expectBrackets(method, truth.files[f]!.classes[k]!.methods[m]!, method.name);
              });
            });
          });
        }
      }),
    );
  });
});
