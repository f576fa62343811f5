import { describe, expect, it } from 'vitest';
import { REPORT_STATUSES } from './messages.ts';
import {
  FAILURE_STATUSES,
  isFailureStatus,
  isRunningStatus,
  NOTIFYING_STATUSES,
  PIPELINE_STEPS,
  REPORT_JOB_STATUSES,
  RUNNING_STATUSES,
  STEP_FAILURE,
} from './report-status.ts';
import { ReportSchema } from './reports.ts';

describe('report statuses, derived from the pipeline table', () => {
  it('lists the steps in pipeline order and each failure beside its step (specification point 4)', () => {
    expect(RUNNING_STATUSES).toEqual([
      'QUEUED',
      'CLONING',
      'COMPILING',
      'DIFF_METHODS',
      'ADDING_MODULE',
      'ENV_REPORT',
      'GENERATING_REPORT',
    ]);
    expect(STEP_FAILURE).toEqual({
      CLONING: 'CLONE_FAIL',
      COMPILING: 'COMPILE_FAIL',
      DIFF_METHODS: 'DIFF_METHOD_FAIL',
      ADDING_MODULE: 'FAILADDMODULE',
      ENV_REPORT: 'ENVREPORT_FAIL',
      GENERATING_REPORT: 'GENERATEREPORT_FAIL',
    });
    expect(FAILURE_STATUSES).toEqual(PIPELINE_STEPS.slice(1).map((step) => step.failure));
  });

  it('notifies on every failure and on SUCCESS, never on a running step', () => {
    expect(NOTIFYING_STATUSES).toEqual([...FAILURE_STATUSES, 'SUCCESS']);
    expect(RUNNING_STATUSES.filter((status) => (NOTIFYING_STATUSES as readonly string[]).includes(status))).toEqual([]);
  });

  it('tells running and failure statuses apart', () => {
    expect(isRunningStatus('COMPILING')).toBe(true);
    expect(isRunningStatus('COMPILE_FAIL')).toBe(false);
    expect(isFailureStatus('COMPILE_FAIL')).toBe(true);
    expect(isFailureStatus('SUCCESS')).toBe(false);
    expect(isFailureStatus('compile_fail')).toBe(false);
  });

  it("keeps a report row's statuses apart from the agent heart-beats a message may carry", () => {
    expect(REPORT_STATUSES).toEqual([...REPORT_JOB_STATUSES, 'HEART_BEAT_DONE', 'HEART_BEAT_ERROR']);
    const status = ReportSchema.shape.status;
    for (const value of REPORT_JOB_STATUSES) expect(status.safeParse(value).success, value).toBe(true);
    for (const value of ['HEART_BEAT_DONE', 'BUILD_FAILED', 'success', '']) {
      expect(status.safeParse(value).success, value).toBe(false);
    }
  });
});
