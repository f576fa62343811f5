import {
  type CreateRegression,
  REGRESSION_TEST,
  REGRESSION_VERDICTS,
  type RegressionInterface,
  RegressionResultSchema,
  type RegressionRun,
  type RegressionRunDetail,
  RegressionSideSchema,
} from '@sextant/api';
import { ApiError } from '../../errors.ts';
import { mannWhitneyGreater, proportionGreater } from './mann-whitney.ts';
import type { RegressionRepository, RegressionRunRow, SideInterfaceRow } from './regression-repository.ts';
import { windowOf } from './window.ts';

const ALPHA = 0.05;
/** A shift the rank test finds must also matter: p95 moved by at least a tenth of the base's. */
const MIN_P95_CHANGE = 0.1;
type Verdict = RegressionInterface['verdicts'][number];

const figures = (r: SideInterfaceRow | undefined) =>
  r ? { calls: Number(r.calls), errors: Number(r.errors), p95Ms: Number(r.p95_ns) / 1e6 } : null;

/** One interface compared: added, removed, slower (rank test), failing more (proportion test), faster. */
export function compareInterface(name: string, base?: SideInterfaceRow, cand?: SideInterfaceRow): RegressionInterface {
  const b = figures(base);
  const c = figures(cand);
  const verdicts: Verdict[] = [];
  if (!b) verdicts.push('added');
  if (!c) verdicts.push('removed');
  const slower = base && cand ? mannWhitneyGreater(base.sample_ms, cand.sample_ms) : null;
  const faster = base && cand ? mannWhitneyGreater(cand.sample_ms, base.sample_ms) : null;
  const pFailing = b && c ? proportionGreater(b.errors, b.calls, c.errors, c.calls) : null;
  if (slower && slower.p < ALPHA && c && b && c.p95Ms >= b.p95Ms * (1 + MIN_P95_CHANGE)) verdicts.push('slower');
  if (pFailing !== null && pFailing < ALPHA) verdicts.push('failing-more');
  if (faster && faster.p < ALPHA && c && b && c.p95Ms <= b.p95Ms * (1 - MIN_P95_CHANGE)) verdicts.push('faster');
  return {
    interface: name,
    verdicts,
    base: b,
    candidate: c,
    p95DeltaMs: b && c ? c.p95Ms - b.p95Ms : null,
    pSlower: slower?.p ?? null,
    pFailing,
  };
}

function countsOf(interfaces: RegressionInterface[]): RegressionRun['counts'] {
  const counts = Object.fromEntries(REGRESSION_VERDICTS.map((v) => [v, 0])) as RegressionRun['counts'];
  for (const i of interfaces) {
    if (i.verdicts.length === 0) counts.unchanged += 1;
    for (const v of i.verdicts) counts[v] += 1;
  }
  return counts;
}

/** Regression runs (`/otel/regression`, issue 36): computed when made, stored whole. */
export class RegressionService {
  constructor(
    private readonly repository: RegressionRepository,
    private readonly now: () => number = Date.now,
  ) {}

  async create(input: CreateRegression, userId: string | null): Promise<RegressionRunDetail> {
    for (const [field, side] of [
      ['base', input.base],
      ['candidate', input.candidate],
    ] as const) {
      if (side.kind === 'window') {
        try {
          windowOf(side, this.now());
        } catch (error) {
          if (error instanceof ApiError)
            throw new ApiError(400, 'validation-failed', error.message, {
              [field]: 'The window must run forward and span at most 31 days.',
            });
          throw error;
        }
      }
    }
    const [base, cand, baseCases, candCases] = await Promise.all([
      this.repository.sideInterfaces(input.appId, input.base),
      this.repository.sideInterfaces(input.appId, input.candidate),
      this.repository.sideTestCases(input.appId, input.base),
      this.repository.sideTestCases(input.appId, input.candidate),
    ]);
    const baseBy = new Map(base.map((r) => [r.interface, r]));
    const candBy = new Map(cand.map((r) => [r.interface, r]));
    const names = [...new Set([...baseBy.keys(), ...candBy.keys()])].sort();
    const interfaces = names.map((n) => compareInterface(n, baseBy.get(n), candBy.get(n)));
    const result = { test: REGRESSION_TEST, interfaces, testCases: { base: baseCases, candidate: candCases } };
    const row = await this.repository.insert({
      appId: input.appId,
      name: input.name,
      base: input.base,
      candidate: input.candidate,
      result,
      createdBy: userId,
    });
    return this.detailOf(row);
  }

  async list(appId?: string): Promise<RegressionRun[]> {
    return (await this.repository.list(appId)).map((r) => this.summaryOf(r));
  }

  async get(id: string): Promise<RegressionRunDetail> {
    const row = await this.repository.get(id);
    if (!row) throw new ApiError(404, 'not-found', 'No such regression run.');
    return this.detailOf(row);
  }

  private summaryOf(row: RegressionRunRow): RegressionRun {
    const result = RegressionResultSchema.parse(row.result);
    return {
      id: row.id,
      appId: row.appId,
      name: row.name,
      base: RegressionSideSchema.parse(row.base),
      candidate: RegressionSideSchema.parse(row.candidate),
      createdAt: row.createdAt.toISOString(),
      counts: countsOf(result.interfaces),
    };
  }

  private detailOf(row: RegressionRunRow): RegressionRunDetail {
    return { ...this.summaryOf(row), result: RegressionResultSchema.parse(row.result) };
  }
}
