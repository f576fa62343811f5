import { CONNECTION_TEST_MESSAGE, isHeartbeat, type Message, type ReportJobStatus } from '@sextant/api';
import { useEffect, useRef } from 'react';
import { messageHub } from '../../../lib/message-hub.ts';

export type ProgressMessage = Message & { report_id: string; status: ReportJobStatus };

/** Report progress pushes: messages with a report id and a pipeline status (heart-beats left out). */
export function isProgress(message: Message): message is ProgressMessage {
  if (message.message_type === CONNECTION_TEST_MESSAGE.message_type) return false;
  return Boolean(message.report_id && message.status && !isHeartbeat(message.status));
}

/**
 * Calls `onProgress` for every report progress message while the screen is open, listening on the
 * tab's one STOMP connection (lib/message-hub.ts; it opens if the navbar's is not open yet).
 */
export function useReportProgress(onProgress: (message: ProgressMessage) => void) {
  const latest = useRef(onProgress);
  latest.current = onProgress;
  useEffect(() => {
    return messageHub.listen((message) => {
      if (isProgress(message)) latest.current(message);
    });
  }, []);
}
