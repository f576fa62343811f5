import { Typography } from 'antd';
import { coverageTone, TONE_COLORS } from '../../../lib/grades.ts';
import { useLocale } from '../../../lib/i18n.tsx';
import { useSession } from '../../../lib/session.tsx';

/** A labelled coverage fraction in its grade colour (point 9); absent shows "—". */
export function Figure({ label, value }: { label: string; value: number | null | undefined }) {
  const { settings } = useSession();
  const { formatPercent } = useLocale();
  const color = value === null || value === undefined ? undefined : TONE_COLORS[coverageTone(value, settings)];
  return (
    <div className="dashboard-figure">
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {label}
      </Typography.Text>
      <div style={{ color, fontSize: 20, fontWeight: 600 }}>{formatPercent(value ?? null)}</div>
    </div>
  );
}
