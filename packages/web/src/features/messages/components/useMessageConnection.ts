import { CONNECTION_TEST_MESSAGE, createsNotification, isHeartbeat, type Message } from '@sextant/api';
import { useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { messageHub } from '../../../lib/message-hub.ts';
import { useSession } from '../../../lib/session.tsx';
import type { ConnectionState } from '../../../lib/stomp.ts';
import { notificationsKey } from '../api/get-notifications.ts';
import { heartbeatsKey, reportMessagesKey } from '../api/message-keys.ts';
import { progressText, useProgressWording } from '../progress-text.ts';

export type MessageConnection = { state: ConnectionState; error: string | null };

/**
 * Keeps the tab's message connection open while someone is signed in. Pushes refresh the query cache;
 * a new notification also shows a toast (3000 ms, point 9).
 */
export function useMessageConnection(): MessageConnection {
  const { userData } = useSession();
  const client = useQueryClient();
  const { notification } = App.useApp();
  const [connection, setConnection] = useState<MessageConnection>({ state: 'closed', error: null });
  const userId = userData?.userid;
  // Read at delivery time, so switching the language does not reconnect the socket.
  const currentWording = useProgressWording();
  const wording = useRef(currentWording);
  wording.current = currentWording;

  useEffect(() => {
    if (!userId) return;
    const onMessage = (message: Message) => {
      if (message.message_type === CONNECTION_TEST_MESSAGE.message_type) return;
      if (message.report_id) {
        const key = message.status && isHeartbeat(message.status) ? heartbeatsKey : reportMessagesKey;
        void client.invalidateQueries({ queryKey: key(message.report_id) });
      }
      if (!createsNotification(message)) return;
      void client.invalidateQueries({ queryKey: notificationsKey });
      const shown = progressText(message, wording.current);
      notification.info({ key: message.id, title: shown.title, description: shown.text });
    };
    // The tab's one connection (lib/message-hub.ts): report screens listen on it too.
    const stopWatching = messageHub.watchState((state, error) => setConnection({ state, error }));
    const stopListening = messageHub.listen(onMessage);
    return () => {
      stopListening();
      stopWatching();
    };
  }, [userId, client, notification]);

  return connection;
}
