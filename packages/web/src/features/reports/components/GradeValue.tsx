import { Typography } from 'antd';
import { coverageTone, percent, TONE_COLORS } from '../../../lib/grades.ts';
import { useSession } from '../../../lib/session.tsx';

/** A coverage fraction in its grade colour (point 9); an absent counter shows "—", never 0 %. */
export function GradeValue({ value, strong }: { value: number | null | undefined; strong?: boolean }) {
  const { settings } = useSession();
  if (value === null || value === undefined) return <Typography.Text type="secondary">—</Typography.Text>;
  const tone = coverageTone(value, settings);
  return (
    <span className={`grade grade-${tone}`} style={{ color: TONE_COLORS[tone], fontWeight: strong ? 600 : undefined }}>
      {percent(value)}
    </span>
  );
}

/** "covered / total" under a fraction, or nothing when the counter is absent. */
export function CountOf({ covered, total }: { covered: number | null; total: number | null }) {
  if (covered === null || total === null) return null;
  return (
    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
      {covered.toLocaleString()} / {total.toLocaleString()}
    </Typography.Text>
  );
}
