import {
  type AgentHeartbeat,
  AgentHeartbeatSchema,
  type Message,
  MessageSchema,
  PATHS,
  pageSchema,
} from '@sextant/api';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/session.tsx';
import { heartbeatsKey, reportMessagesKey } from './message-keys.ts';

const HistorySchema = pageSchema(MessageSchema);
const HeartbeatsSchema = AgentHeartbeatSchema.array();

export async function getReportMessages(
  reportId: string,
  page: number,
  perPage: number,
): Promise<{ items: Message[]; total: number }> {
  return api.get(PATHS.messages, HistorySchema, { query: { reportId, page, perPage } });
}

export async function getHeartbeats(reportId: string): Promise<AgentHeartbeat[]> {
  return api.get(PATHS.messageHeartbeats, HeartbeatsSchema, { query: { reportId } });
}

/** A report's progress history, newest first; real-time pushes for the report refresh it. */
export function useReportMessages(reportId: string, page = 1, perPage = 20) {
  return useQuery(
    queryOptions({
      queryKey: [...reportMessagesKey(reportId), page, perPage],
      queryFn: () => getReportMessages(reportId, page, perPage),
    }),
  );
}

/** The last heart-beat of each agent of a report (point 4). */
export function useHeartbeats(reportId: string) {
  return useQuery(queryOptions({ queryKey: heartbeatsKey(reportId), queryFn: () => getHeartbeats(reportId) }));
}
