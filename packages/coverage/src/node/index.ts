export * from './blame.ts';
export * from './changed-methods.ts';
export { changesCacheStats } from './changes-cache.ts';
export * from './diff-coverage.ts';
export * from './git.ts';
export * from './load-report.ts';
export { type Phase, phaseTimes } from './phases.ts';
export * from './read-report.ts';
export * from './revision-source.ts';
