import { Tag } from 'antd';
import { useSession } from '../../../lib/session.tsx';
import { durationTone, formatMs } from '../url.ts';

/** A duration in the colour of point 9's thresholds (stored in seconds). */
export function DurationTag({ ms }: { ms: number }) {
  const { settings } = useSession();
  const tone = durationTone(ms, settings.traceWarnThreshold, settings.traceSeriousThreshold);
  return <Tag color={tone === 'danger' ? 'error' : tone}>{formatMs(ms)}</Tag>;
}
