import { Badge, Tooltip } from 'antd';
import type { ConnectionState } from '../../../lib/stomp.ts';

const SHOWN: Record<ConnectionState, { status: 'processing' | 'success' | 'default' | 'error'; label: string }> = {
  connecting: { status: 'processing', label: 'Connecting' },
  open: { status: 'success', label: 'Live' },
  closed: { status: 'default', label: 'Offline' },
  error: { status: 'error', label: 'Connection error' },
};

/** The message connection's state in the navbar (specification point 4). */
export function ConnectionIndicator({ state, error }: { state: ConnectionState; error: string | null }) {
  const { status, label } = SHOWN[state];
  return (
    <Tooltip title={error ?? `Messages: ${label.toLowerCase()}`}>
      <span role="status" aria-label={`Message connection: ${state}`} data-state={state}>
        <Badge status={status} text={label} />
      </span>
    </Tooltip>
  );
}
