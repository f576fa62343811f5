import type { Dashboard } from '@sextant/api';

export type TrendPoint = Dashboard['apps'][number]['trend'][number];
type Figure = 'lineCoverage' | 'branchCoverage' | 'diffLineCoverage';

/** The report a version's point of one figure comes from, or null when no report of it has the figure. */
export type VersionFigure = { value: number; point: TrendPoint } | null;

export type TrendByVersion = {
  /** In the order the server gives: by the version's date. */
  versions: string[];
  figures: Record<Figure, VersionFigure[]>;
};

/**
 * One trend point per version (issue 37: the axis names versions, not the minute a report ran): of a
 * version's reports, the latest with the figure; lines and branches from a full report when the
 * version has one (an incremental report's count its changed methods only), changed lines from an
 * incremental one.
 */
export function trendByVersion(trend: readonly TrendPoint[]): TrendByVersion {
  const versions: string[] = [];
  const byVersion = new Map<string, TrendPoint[]>();
  for (const point of trend) {
    let points = byVersion.get(point.version);
    if (!points) {
      points = [];
      byVersion.set(point.version, points);
      versions.push(point.version);
    }
    points.push(point);
  }
  const pick = (version: string, figure: Figure): VersionFigure => {
    const points = [...(byVersion.get(version) ?? [])].sort((a, b) => a.date.localeCompare(b.date));
    const full = points.filter((p) => p.coverageType === 'full' && p[figure] !== null);
    const candidates =
      figure !== 'diffLineCoverage' && full.length > 0 ? full : points.filter((p) => p[figure] !== null);
    const point = candidates.at(-1);
    return point ? { value: point[figure] as number, point } : null;
  };
  const figures = {
    lineCoverage: versions.map((v) => pick(v, 'lineCoverage')),
    branchCoverage: versions.map((v) => pick(v, 'branchCoverage')),
    diffLineCoverage: versions.map((v) => pick(v, 'diffLineCoverage')),
  };
  return { versions, figures };
}
