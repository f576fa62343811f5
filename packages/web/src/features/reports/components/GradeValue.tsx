import { Tooltip, Typography } from 'antd';
import { coverageTone, TONE_COLORS } from '../../../lib/grades.ts';
import { fill, useLocale, useTexts } from '../../../lib/i18n.tsx';
import { useSession } from '../../../lib/session.tsx';
import { reportTexts } from '../texts.ts';

/** A coverage fraction in its grade colour (point 9); an absent counter shows "—", never 0 %. */
export function GradeValue({ value, strong }: { value: number | null | undefined; strong?: boolean }) {
  const { settings } = useSession();
  const { formatPercent } = useLocale();
  if (value === null || value === undefined || Number.isNaN(value))
    return <Typography.Text type="secondary">—</Typography.Text>;
  const tone = coverageTone(value, settings);
  return (
    <span className={`grade grade-${tone}`} style={{ color: TONE_COLORS[tone], fontWeight: strong ? 600 : undefined }}>
      {formatPercent(value)}
    </span>
  );
}

/**
 * "covered / total" under a fraction, or nothing when the counter is absent; "80–84 / 145" with a
 * tooltip saying why when a merge left the counter a range (issue 38: `coveredAtMost`).
 */
export function CountOf({
  covered,
  total,
  coveredAtMost,
}: {
  covered: number | null;
  total: number | null;
  coveredAtMost?: number | null;
}) {
  const { formatNumber } = useLocale();
  const t = useTexts(reportTexts);
  if (covered === null || total === null) return null;
  const ranged = coveredAtMost !== null && coveredAtMost !== undefined && coveredAtMost > covered;
  const count = (
    <Typography.Text type="secondary" style={{ fontSize: 12 }} className={ranged ? 'count-range' : undefined}>
      {formatNumber(covered)}
      {ranged && `–${formatNumber(coveredAtMost)}`} / {formatNumber(total)}
    </Typography.Text>
  );
  if (!ranged) return count;
  const hint = fill(t.rangeHint, { low: formatNumber(covered), high: formatNumber(coveredAtMost) });
  return (
    <Tooltip title={hint}>
      <span>{count}</span>
    </Tooltip>
  );
}
