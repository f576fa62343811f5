import { isHeartbeat } from '@sextant/api';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { messageHub } from '../../../lib/message-hub.ts';

/** Report progress pushes refresh the dashboard (running reports and, when one finishes, the figures). */
export function useLiveDashboard() {
  const client = useQueryClient();
  useEffect(() => {
    // Listens on the tab's one STOMP connection (lib/message-hub.ts).
    return messageHub.listen((message) => {
      if (message.report_id && message.status && !isHeartbeat(message.status)) {
        void client.invalidateQueries({ queryKey: ['reports', 'dashboard'] });
      }
    });
  }, [client]);
}
