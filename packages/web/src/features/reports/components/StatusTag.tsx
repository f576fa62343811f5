import { Tag, Tooltip } from 'antd';
import { isFailure, isRunning } from './report-status.ts';
import { useStatusText } from './useStatusText.ts';

/** A report's last pipeline status: running steps spin, failures are red with the reason on hover. */
export function StatusTag({ status, errMsg }: { status: string; errMsg?: string | null }) {
  const text = useStatusText()(status);
  const color =
    status === 'SUCCESS' ? 'success' : isRunning(status) ? 'processing' : isFailure(status) ? 'error' : undefined;
  const hint = isFailure(status) && errMsg ? `${text.hint}: ${errMsg}` : text.hint;
  return (
    <Tooltip title={hint}>
      <Tag color={color}>{text.tag}</Tag>
    </Tooltip>
  );
}
