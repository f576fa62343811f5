import { Typography } from 'antd';
import { coverageTone, TONE_COLORS } from '../../../lib/grades.ts';
import { useLocale } from '../../../lib/i18n.tsx';
import { useSession } from '../../../lib/session.tsx';

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

/** "covered / total" under a fraction, or nothing when the counter is absent. */
export function CountOf({ covered, total }: { covered: number | null; total: number | null }) {
  const { formatNumber } = useLocale();
  if (covered === null || total === null) return null;
  return (
    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
      {formatNumber(covered)} / {formatNumber(total)}
    </Typography.Text>
  );
}
