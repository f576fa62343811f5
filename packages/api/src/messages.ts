import { z } from 'zod';

/** Report-progress statuses that create an unread notification (specification point 4). */
export const NOTIFYING_STATUSES = [
  'CLONE_FAIL',
  'COMPILE_FAIL',
  'DIFF_METHOD_FAIL',
  'FAILADDMODULE',
  'ENVREPORT_FAIL',
  'GENERATEREPORT_FAIL',
  'SUCCESS',
] as const;
/** Agent heart-beats update the agent's last heart-beat time and IP per report; no notification. */
export const HEARTBEAT_STATUSES = ['HEART_BEAT_DONE', 'HEART_BEAT_ERROR'] as const;
/** Steps of a running report job (DESIGN §5), published as they start. */
export const RUNNING_STATUSES = [
  'QUEUED',
  'CLONING',
  'COMPILING',
  'DIFF_METHODS',
  'ADDING_MODULE',
  'ENV_REPORT',
  'GENERATING_REPORT',
] as const;
export const REPORT_STATUSES = [...RUNNING_STATUSES, ...NOTIFYING_STATUSES, ...HEARTBEAT_STATUSES] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

export function isNotifying(status: string): boolean {
  return (NOTIFYING_STATUSES as readonly string[]).includes(status);
}
export function isHeartbeat(status: string): boolean {
  return (HEARTBEAT_STATUSES as readonly string[]).includes(status);
}

/** A message as pushed on `/all/messages` or `/user/queue/messages` and listed by the API (point 3). */
export const MessageSchema = z.object({
  id: z.string(),
  title: z.string(),
  text: z.string(),
  date: z.string(),
  message_type: z.string(),
  readed: z.boolean(),
  hidded: z.boolean(),
  report_id: z.string().nullable().optional(),
  agent_id: z.string().nullable().optional(),
  status: z.string().nullable().optional(),
  ip: z.string().nullable().optional(),
});
export type Message = z.infer<typeof MessageSchema>;

/** The connection test a client publishes on `/all/messages` when its socket opens (point 7). */
export const CONNECTION_TEST_MESSAGE = { message_type: 'CONNECTION_TEST' } as const;

export const WS_HEARTBEAT_MS = 5000;
export const WS_MAX_HISTORY_LENGTH = 10000;
/** History is trimmed once it exceeds the limit by this much (point 4). */
export const WS_HISTORY_TRIM_SLACK = 500;
