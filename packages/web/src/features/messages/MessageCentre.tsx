import { ConnectionIndicator } from './components/ConnectionIndicator.tsx';
import { NotificationBell } from './components/NotificationBell.tsx';
import { useMessageConnection } from './components/useMessageConnection.ts';

/** The navbar's part of the message centre: connection state and the notification bell. */
export function MessageCentre() {
  const { state, error } = useMessageConnection();
  return (
    <>
      <ConnectionIndicator state={state} error={error} />
      <NotificationBell />
    </>
  );
}
