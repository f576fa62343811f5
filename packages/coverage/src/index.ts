export { detectFormat, isGzip } from './detect.ts';
export * from './diff/unified.ts';
export { eachLimited } from './each-limited.ts';
export { COVERAGE_ERROR_CODES, CoverageError, type CoverageErrorCode } from './errors.ts';
export * from './figures/bounds.ts';
export * from './figures/by-package.ts';
export * from './figures/carry-forward.ts';
export { branchCounter, lineCounter, sumCounters } from './figures/counters.ts';
export * from './figures/diff-coverage.ts';
export * from './figures/diff-lines.ts';
export * from './figures/incremental.ts';
export { jacocoClassId } from './formats/jacoco-class-id.ts';
export * from './formats/jacoco-exec.ts';
export {
  type CoverageParser,
  createCoverageParser,
  DEFAULT_MAX_BYTES,
  type ParseOptions,
  parseCoverage,
} from './formats/parser.ts';
export * from './merge/exec.ts';
export { mergeCoverage } from './merge/merge.ts';
export * from './methods/index.ts';
export * from './model/coverage.ts';
export { type LineColumns, type LineSums, lineColumns } from './model/line-buffer.ts';
export {
  type AmbiguousPath,
  indexPaths,
  type MapPathsOptions,
  type MappedCoverage,
  mapPaths,
  normalisePath,
  type PathIndex,
} from './paths/map.ts';
