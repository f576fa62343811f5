import { z } from 'zod';

const IsoTime = z.iso.datetime({ offset: true });

/** One side of a regression run: the spans of an app version, or of a time window. */
export const RegressionSideSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('version'), version: z.string().min(1).max(200) }),
  z.object({ kind: z.literal('window'), from: IsoTime, to: IsoTime }),
]);
export type RegressionSide = z.infer<typeof RegressionSideSchema>;

export const CreateRegressionSchema = z.object({
  appId: z.uuid(),
  name: z.string().trim().min(1).max(200),
  base: RegressionSideSchema,
  candidate: RegressionSideSchema,
});
export type CreateRegression = z.infer<typeof CreateRegressionSchema>;

export const REGRESSION_VERDICTS = ['added', 'removed', 'slower', 'failing-more', 'faster', 'unchanged'] as const;
/** The test named on the screen (issue 36: "the test named on the screen"). */
export const REGRESSION_TEST =
  'Mann-Whitney U, one-sided, normal approximation with tie correction, α = 0.05, and p95 changed by at least 10 %';

const SideFigures = z.object({ calls: z.number().int(), errors: z.number().int(), p95Ms: z.number() });

export const RegressionInterfaceSchema = z.object({
  interface: z.string(),
  /** Every verdict that holds (an interface can be both slower and failing more); empty: unchanged. */
  verdicts: z.array(z.enum(REGRESSION_VERDICTS)),
  base: SideFigures.nullable(),
  candidate: SideFigures.nullable(),
  p95DeltaMs: z.number().nullable(),
  /** One-sided p-value that candidate durations are larger (Mann-Whitney U); null without both samples. */
  pSlower: z.number().nullable(),
  /** One-sided p-value that the candidate's error rate is higher (two-proportion z-test). */
  pFailing: z.number().nullable(),
});
export type RegressionInterface = z.infer<typeof RegressionInterfaceSchema>;

export const RegressionResultSchema = z.object({
  test: z.string(),
  interfaces: z.array(RegressionInterfaceSchema),
  /** Test cases seen on each side (test.case.id of the traces). */
  testCases: z.object({ base: z.array(z.string()), candidate: z.array(z.string()) }),
});

export const RegressionRunSchema = z.object({
  id: z.uuid(),
  appId: z.uuid(),
  name: z.string(),
  base: RegressionSideSchema,
  candidate: RegressionSideSchema,
  createdAt: z.string(),
  counts: z.record(z.enum(REGRESSION_VERDICTS), z.number().int()),
});
export type RegressionRun = z.infer<typeof RegressionRunSchema>;
export const RegressionRunListSchema = z.object({ items: z.array(RegressionRunSchema) });
export const RegressionRunDetailSchema = RegressionRunSchema.extend({ result: RegressionResultSchema });
export type RegressionRunDetail = z.infer<typeof RegressionRunDetailSchema>;
export const RegressionListQuerySchema = z.object({ appId: z.uuid().optional() });
