import { Tag, Tooltip } from 'antd';
import { isFailure, isRunning } from './report-status.ts';

/** A report's last pipeline status: running steps spin, failures are red with the reason on hover. */
export function StatusTag({ status, errMsg }: { status: string; errMsg?: string | null }) {
  if (status === 'SUCCESS') return <Tag color="success">SUCCESS</Tag>;
  if (isRunning(status)) return <Tag color="processing">{status}</Tag>;
  if (isFailure(status)) {
    return (
      <Tooltip title={errMsg ?? undefined}>
        <Tag color="error">{status}</Tag>
      </Tooltip>
    );
  }
  return <Tag>{status}</Tag>;
}
