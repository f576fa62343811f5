import { z } from 'zod';
import { NOTIFYING_STATUSES, RUNNING_STATUSES } from './report-status.ts';

/** Agent heart-beats update the agent's last heart-beat time and IP per report; no notification. */
export const HEARTBEAT_STATUSES = ['HEART_BEAT_DONE', 'HEART_BEAT_ERROR'] as const;
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

/** A message becomes a notification when it ends a report job, or when it is a plain notice without a status. */
export function createsNotification(message: { status?: string | null; message_type: string }): boolean {
  if (message.status) return isNotifying(message.status);
  return message.message_type !== CONNECTION_TEST_MESSAGE.message_type;
}

/**
 * What administrators and agents publish (`POST /api/messages`). The server sets `date` and `ip`; the
 * body's are ignored (issue 32: a message's time and origin are the server's word).
 */
export const PublishMessageRequestSchema = z.object({
  id: z.string().trim().min(1).max(128).optional(),
  title: z.string().max(500).default(''),
  text: z.string().max(20_000).default(''),
  message_type: z.string().trim().min(1).max(64).default('REPORT_PROGRESS'),
  report_id: z.string().trim().min(1).max(128).optional(),
  agent_id: z.string().trim().min(1).max(128).optional(),
  status: z.enum(REPORT_STATUSES).optional(),
});
export type PublishMessageRequest = z.input<typeof PublishMessageRequestSchema>;

export const MessageHistoryQuerySchema = z.object({
  reportId: z.string().min(1).max(128),
  page: z.coerce.number().int().min(1).default(1),
  perPage: z.coerce.number().int().min(1).max(500).default(50),
});

export const NotificationQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  perPage: z.coerce.number().int().min(1).max(200).default(10),
});

/** My notifications, unread first, with how many are unread in all. */
export const NotificationPageSchema = z.object({
  items: z.array(MessageSchema),
  total: z.number().int().nonnegative(),
  unread: z.number().int().nonnegative(),
});
export type NotificationPage = z.infer<typeof NotificationPageSchema>;

export const UnreadCountSchema = z.object({ unread: z.number().int().nonnegative() });

/** The last heart-beat of one agent for one report. */
export const AgentHeartbeatSchema = z.object({
  agent_id: z.string(),
  status: z.enum(HEARTBEAT_STATUSES),
  ip: z.string().nullable(),
  date: z.string(),
});
export type AgentHeartbeat = z.infer<typeof AgentHeartbeatSchema>;
