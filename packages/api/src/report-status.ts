/**
 * The report pipeline's steps in order (DESIGN §5), each with the failure status it ends the report in
 * (specification point 4). The one table of report statuses: the server's pipeline and the web's progress
 * view both derive from it (issue 33).
 */
export const PIPELINE_STEPS = [
  { status: 'QUEUED', failure: null },
  { status: 'CLONING', failure: 'CLONE_FAIL' },
  { status: 'COMPILING', failure: 'COMPILE_FAIL' },
  { status: 'DIFF_METHODS', failure: 'DIFF_METHOD_FAIL' },
  { status: 'ADDING_MODULE', failure: 'FAILADDMODULE' },
  { status: 'ENV_REPORT', failure: 'ENVREPORT_FAIL' },
  { status: 'GENERATING_REPORT', failure: 'GENERATEREPORT_FAIL' },
] as const;

type PipelineStep = (typeof PIPELINE_STEPS)[number];
/** A running report's status: the step it is in. */
export type RunningStatus = PipelineStep['status'];
/** The status a failed step ends its report in. */
export type FailureStatus = NonNullable<PipelineStep['failure']>;
/** A step that does work and so can fail (every step but QUEUED). */
export type WorkingStep = Extract<PipelineStep, { failure: string }>['status'];
/** What a report's `status` can be: a running step, a failure, or SUCCESS. */
export type ReportJobStatus = RunningStatus | FailureStatus | 'SUCCESS';

/** Each working step's failure status. */
export const STEP_FAILURE = Object.fromEntries(
  PIPELINE_STEPS.flatMap((step) => (step.failure ? [[step.status, step.failure]] : [])),
) as { [S in PipelineStep as S['failure'] extends string ? S['status'] : never]: S['failure'] };

/** Steps of a running report job, published as they start. */
export const RUNNING_STATUSES = PIPELINE_STEPS.map((step) => step.status) as unknown as readonly [
  RunningStatus,
  ...RunningStatus[],
];
/** The failure statuses, in step order. */
export const FAILURE_STATUSES = PIPELINE_STEPS.flatMap((step) =>
  step.failure ? [step.failure] : [],
) as unknown as readonly [FailureStatus, ...FailureStatus[]];
/** Report-progress statuses that create an unread notification (specification point 4). */
export const NOTIFYING_STATUSES = [...FAILURE_STATUSES, 'SUCCESS'] as const;
/** Every status a report row can hold. */
export const REPORT_JOB_STATUSES = [...RUNNING_STATUSES, ...NOTIFYING_STATUSES] as const;

export function isRunningStatus(status: string): status is RunningStatus {
  return (RUNNING_STATUSES as readonly string[]).includes(status);
}
export function isFailureStatus(status: string): status is FailureStatus {
  return (FAILURE_STATUSES as readonly string[]).includes(status);
}
