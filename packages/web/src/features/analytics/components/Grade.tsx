import { Typography } from 'antd';
import { coverageTone, TONE_COLORS } from '../../../lib/grades.ts';
import { useLocale } from '../../../lib/i18n.tsx';
import { useSession } from '../../../lib/session.tsx';

/** A coverage fraction in its grade colour (specification point 9); nothing measured shows "—". */
export function Grade({ value, size }: { value: number | null | undefined; size?: number }) {
  const { settings } = useSession();
  const { formatPercent } = useLocale();
  if (value === null || value === undefined) return <Typography.Text type="secondary">—</Typography.Text>;
  const tone = coverageTone(value, settings);
  return (
    <span className={`grade grade-${tone}`} style={{ color: TONE_COLORS[tone], fontWeight: 600, fontSize: size }}>
      {formatPercent(value)}
    </span>
  );
}
