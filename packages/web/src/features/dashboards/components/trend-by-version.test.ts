import { describe, expect, it } from 'vitest';
import { type TrendPoint, trendByVersion } from './trend-by-version.ts';

const point = (over: Partial<TrendPoint>): TrendPoint => ({
  reportId: over.name ?? 'r',
  name: 'r',
  date: '2026-11-28T14:51:00.000Z',
  version: 'v1',
  versionDate: '2026-11-28T14:51:00.000Z',
  coverageType: 'full',
  lineCoverage: null,
  branchCoverage: null,
  diffLineCoverage: null,
  ...over,
});

describe('trendByVersion', () => {
  it('gives one point per version, in the order given, however many reports ran the same minute', () => {
    const trend = [
      point({ name: 'a', version: 'v1.0', lineCoverage: 0.5 }),
      point({ name: 'b', version: 'v1.1', lineCoverage: 0.6 }),
      point({ name: 'c', version: 'v1.2', lineCoverage: 0.7 }),
    ];
    const byVersion = trendByVersion(trend);
    expect(byVersion.versions).toEqual(['v1.0', 'v1.1', 'v1.2']);
    expect(byVersion.figures.lineCoverage.map((f) => f?.value)).toEqual([0.5, 0.6, 0.7]);
  });

  it('takes a version’s latest full report for lines and its incremental one for changed lines', () => {
    const trend = [
      point({ name: 'full', version: 'v2', date: '2026-01-01T00:00:00Z', lineCoverage: 0.4, branchCoverage: 0.3 }),
      point({
        name: 'incremental',
        version: 'v2',
        date: '2026-01-02T00:00:00Z',
        coverageType: 'incremental',
        lineCoverage: 0.9,
        diffLineCoverage: 0.8,
      }),
      point({ name: 'full again', version: 'v2', date: '2026-01-03T00:00:00Z', lineCoverage: 0.45 }),
    ];
    const { versions, figures } = trendByVersion(trend);
    expect(versions).toEqual(['v2']);
    expect(figures.lineCoverage[0]).toMatchObject({ value: 0.45, point: { name: 'full again' } });
    expect(figures.branchCoverage[0]).toMatchObject({ value: 0.3, point: { name: 'full' } });
    expect(figures.diffLineCoverage[0]).toMatchObject({ value: 0.8, point: { name: 'incremental' } });
  });

  it('falls back to an incremental report’s lines when the version has no full one, and to nothing', () => {
    const trend = [point({ version: 'v3', coverageType: 'incremental', lineCoverage: 0.2 })];
    const { figures } = trendByVersion(trend);
    expect(figures.lineCoverage[0]?.value).toBe(0.2);
    expect(figures.branchCoverage[0]).toBeNull();
  });
});
