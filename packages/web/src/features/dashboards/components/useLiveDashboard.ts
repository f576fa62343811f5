import { isHeartbeat, MeResponseSchema, PATHS } from '@sextant/api';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '../../../lib/session.tsx';
import { openMessageConnection } from '../../../lib/stomp.ts';
import { sessionStore } from '../../../lib/storage.ts';

/** Report progress pushes refresh the dashboard (running reports and, when one finishes, the figures). */
export function useLiveDashboard() {
  const client = useQueryClient();
  useEffect(() => {
    const connection = openMessageConnection({
      token: () => sessionStore.accessToken(),
      onMessage: (message) => {
        if (message.report_id && message.status && !isHeartbeat(message.status)) {
          void client.invalidateQueries({ queryKey: ['reports', 'dashboard'] });
        }
      },
      onState: () => {},
      onRefused: async () => {
        await api.get(PATHS.me, MeResponseSchema).catch(() => {});
      },
    });
    return () => {
      void connection.stop();
    };
  }, [client]);
}
