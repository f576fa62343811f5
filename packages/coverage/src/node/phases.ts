/**
 * When each step of the last `reportWithDiff` in this process finished, in ms from its start
 * (`sextant coverage --verbose` prints them). The report is parsed while git works, so the steps
 * overlap: these are finishing times, not durations. A step that did not run stays absent.
 */
export type Phase = 'report' | 'changes cache' | 'diff' | 'methods' | 'authors' | 'figures';

export const phaseTimes = new Map<Phase, number>();

import { nowMs } from './builtins.ts';

let started = 0;

export function startPhases(): void {
  phaseTimes.clear();
  started = nowMs();
}

export function markPhase(phase: Phase): void {
  phaseTimes.set(phase, nowMs() - started);
}
