import { randomUUID } from 'node:crypto';
import {
  createsNotification,
  isHeartbeat,
  type Message,
  type NotificationPage,
  type PublishMessageRequest,
  PublishMessageRequestSchema,
  WS_HISTORY_TRIM_SLACK,
} from '@sextant/api';
import { ApiError } from '../../plugins/errors.ts';
import { BROADCAST_DESTINATION, type Broker, USER_DESTINATION } from '../../realtime/broker.ts';
import { type MessagesRepository, toMessage } from './repository.ts';

/** A message to publish; `userId` sends it to one user's queue instead of everyone. */
export type PublishInput = PublishMessageRequest & { userId?: string };

const UNREAD = { readed: false, hidded: false };
const json = new TextEncoder();

/**
 * The message centre's one way in (DESIGN §5): the report pipeline, agents and administrators publish
 * here; the message is stored, then pushed to `/all/messages` (or one user's queue) on every instance.
 */
export class MessagesService {
  constructor(
    private readonly repository: MessagesRepository,
    private readonly broker: Broker,
    private readonly historyLimit: () => Promise<number>,
  ) {}

  async publish(input: PublishInput): Promise<Message> {
    const parsed = PublishMessageRequestSchema.parse(input);
    const date = parsed.date ? new Date(parsed.date) : new Date();
    const status = parsed.status ?? null;
    if (status && isHeartbeat(status) && !(parsed.report_id && parsed.agent_id)) {
      throw new ApiError(400, 'validation-failed', 'A heart-beat names its report_id and agent_id.', {
        [parsed.report_id ? 'agent_id' : 'report_id']: 'Required for a heart-beat.',
      });
    }
    const row = await this.repository.insert({
      id: parsed.id ?? randomUUID(),
      title: parsed.title,
      text: parsed.text,
      date,
      messageType: parsed.message_type,
      reportId: parsed.report_id ?? null,
      agentId: parsed.agent_id ?? null,
      status,
      ip: parsed.ip ?? null,
      recipientId: input.userId ?? null,
      notifies: createsNotification({ status, message_type: parsed.message_type }),
    });
    if (!row) throw new ApiError(409, 'conflict', `A message with id ${parsed.id} was already published.`);
    const message = toMessage(row, UNREAD);
    if (status && isHeartbeat(status) && row.reportId && row.agentId) {
      await this.repository.recordHeartbeat({
        reportId: row.reportId,
        agentId: row.agentId,
        status,
        ip: row.ip,
        at: date,
      });
    }
    if (row.reportId) {
      await this.repository.trimHistory(row.reportId, await this.historyLimit(), WS_HISTORY_TRIM_SLACK);
    }
    await this.broker.publish({
      destination: input.userId ? USER_DESTINATION : BROADCAST_DESTINATION,
      body: json.encode(JSON.stringify(message)),
      headers: { 'content-type': 'application/json' },
      ...(input.userId ? { userId: input.userId } : {}),
    });
    return message;
  }

  async history(reportId: string, page: number, perPage: number) {
    const { items, total } = await this.repository.history(reportId, page, perPage);
    return { items: items.map((row) => toMessage(row, UNREAD)), total };
  }

  heartbeats(reportId: string) {
    return this.repository.heartbeats(reportId);
  }

  async notifications(userId: string, page: number, perPage: number): Promise<NotificationPage> {
    const { rows, total, unread } = await this.repository.notifications(userId, page, perPage);
    return { items: rows.map(({ row, readed }) => toMessage(row, { readed, hidded: false })), total, unread };
  }

  async markRead(userId: string, id: string): Promise<{ unread: number }> {
    await this.repository.setFlag(userId, await this.seqOf(userId, id), 'readed');
    return { unread: await this.repository.unreadCount(userId) };
  }

  async hide(userId: string, id: string): Promise<{ unread: number }> {
    await this.repository.setFlag(userId, await this.seqOf(userId, id), 'hidded');
    return { unread: await this.repository.unreadCount(userId) };
  }

  async readAll(userId: string): Promise<{ unread: number }> {
    await this.repository.readAll(userId);
    return { unread: await this.repository.unreadCount(userId) };
  }

  /** Someone else's notification answers like a missing one. */
  private async seqOf(userId: string, id: string): Promise<number> {
    const seq = await this.repository.notificationSeq(userId, id);
    if (seq === null) throw new ApiError(404, 'not-found', 'No such notification.');
    return seq;
  }
}
