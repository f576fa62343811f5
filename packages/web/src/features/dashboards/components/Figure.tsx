import { Typography } from 'antd';
import { coverageTone, percent, TONE_COLORS } from '../../../lib/grades.ts';
import { useSession } from '../../../lib/session.tsx';

/** A labelled coverage fraction in its grade colour (point 9); absent shows "—". */
export function Figure({ label, value }: { label: string; value: number | null | undefined }) {
  const { settings } = useSession();
  const color = value === null || value === undefined ? undefined : TONE_COLORS[coverageTone(value, settings)];
  return (
    <div className="dashboard-figure">
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {label}
      </Typography.Text>
      <div style={{ color, fontSize: 20, fontWeight: 600 }}>{percent(value)}</div>
    </div>
  );
}
