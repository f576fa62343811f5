import { Badge, Tooltip } from 'antd';
import { fill, useLocale, useTexts } from '../../../lib/i18n.tsx';
import type { ConnectionState } from '../../../lib/stomp.ts';
import { messageTexts } from '../texts.ts';

const BADGES: Record<ConnectionState, 'processing' | 'success' | 'default' | 'error'> = {
  connecting: 'processing',
  open: 'success',
  closed: 'default',
  error: 'error',
};

/** The message connection's state in the navbar (specification point 4). */
export function ConnectionIndicator({ state, error }: { state: ConnectionState; error: string | null }) {
  const t = useTexts(messageTexts);
  const { locale } = useLocale();
  const label = t.states[state];
  // The client's own reason is English; other languages show the translated state instead.
  const reason = locale === 'en' ? error : null;
  return (
    <Tooltip title={reason ?? fill(t.messagesState, { state: label.toLowerCase() })}>
      <span role="status" aria-label={fill(t.connectionLabel, { state })} data-state={state}>
        <Badge status={BADGES[state]} text={label} />
      </span>
    </Tooltip>
  );
}
