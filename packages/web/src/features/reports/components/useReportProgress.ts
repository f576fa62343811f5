import {
  CONNECTION_TEST_MESSAGE,
  isHeartbeat,
  MeResponseSchema,
  type Message,
  PATHS,
  type ReportJobStatus,
} from '@sextant/api';
import { useEffect, useRef } from 'react';
import { api } from '../../../lib/session.tsx';
import { openMessageConnection } from '../../../lib/stomp.ts';
import { sessionStore } from '../../../lib/storage.ts';

export type ProgressMessage = Message & { report_id: string; status: ReportJobStatus };

/** Report progress pushes: messages with a report id and a pipeline status (heart-beats left out). */
export function isProgress(message: Message): message is ProgressMessage {
  if (message.message_type === CONNECTION_TEST_MESSAGE.message_type) return false;
  return Boolean(message.report_id && message.status && !isHeartbeat(message.status));
}

/**
 * Calls `onProgress` for every report progress message while the screen is open. The screen keeps
 * its own subscription so it does not depend on the navbar's (same STOMP client code, point 7).
 */
export function useReportProgress(onProgress: (message: ProgressMessage) => void) {
  const latest = useRef(onProgress);
  latest.current = onProgress;
  useEffect(() => {
    const connection = openMessageConnection({
      token: () => sessionStore.accessToken(),
      onMessage: (message) => {
        if (isProgress(message)) latest.current(message);
      },
      onState: () => {},
      onRefused: async () => {
        await api.get(PATHS.me, MeResponseSchema).catch(() => {});
      },
    });
    return () => {
      void connection.stop();
    };
  }, []);
}
