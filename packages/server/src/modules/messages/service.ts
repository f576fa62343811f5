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
import type { SQL } from 'drizzle-orm';
import { ApiError } from '../../errors.ts';
import { withoutServerPaths } from '../../lib/server-paths.ts';
import {
  type Audience,
  BROADCAST_DESTINATION,
  type Broker,
  type Delivery,
  USER_DESTINATION,
} from '../../realtime/broker.ts';
import type { ReportReader } from './readers.ts';
import { type MessageRow, type MessagesRepository, type Reader, toMessage } from './repository.ts';

/**
 * A message to publish. `userId` sends it to one user's queue instead of everyone; `date` and `ip` are
 * the server's (now, and the address an agent's request came from), never a request body's.
 */
export type PublishInput = PublishMessageRequest & { userId?: string; date?: Date; ip?: string | null };

/** Which app and team a message's report_id belongs to (a report's, or an idle agent's app id). */
export type ReportOwners = {
  ownerOf(reportId: string): Promise<{ appId: string; teamId: string } | null>;
  /** SQL selecting the report ids (as text) of these teams' apps. */
  keysOfTeams(teamIds: readonly string[]): SQL;
};

const UNREAD = { readed: false, hidded: false };
const json = new TextEncoder();

function present(row: MessageRow, flags: { readed: boolean; hidded: boolean }): Message {
  const message = toMessage(row, flags);
  return { ...message, title: withoutServerPaths(message.title), text: withoutServerPaths(message.text) };
}

/**
 * The message centre's one way in (DESIGN §5): the report pipeline, agents and administrators publish
 * here; the message is stored, then pushed on every instance to those who may read it: a report's
 * messages (progress, build output, heart-beats) to readers of its team's reports, a notice to everyone.
 */
export class MessagesService {
  constructor(
    private readonly repository: MessagesRepository,
    private readonly broker: Broker,
    private readonly historyLimit: () => Promise<number>,
    private readonly owners: ReportOwners,
  ) {}

  ownerOf(reportId: string) {
    return this.owners.ownerOf(reportId);
  }

  async publish(input: PublishInput): Promise<Message> {
    const parsed = PublishMessageRequestSchema.parse(input);
    const date = input.date ?? new Date();
    const status = parsed.status ?? null;
    if (status && isHeartbeat(status) && !(parsed.report_id && parsed.agent_id)) {
      throw new ApiError(400, 'validation-failed', 'A heart-beat names its report_id and agent_id.', {
        [parsed.report_id ? 'agent_id' : 'report_id']: 'Required for a heart-beat.',
      });
    }
    const reportId = parsed.report_id ?? null;
    const audience: Audience =
      reportId === null ? 'everyone' : { reportsOfTeam: (await this.owners.ownerOf(reportId))?.teamId ?? null };
    // Stored, then published with as little as possible between (the owner is read before, the trim
    // after): a process killed in between (a SIGKILLed worker) leaves a message in the history that
    // was never sent live.
    const row = await this.repository.insert({
      id: parsed.id ?? randomUUID(),
      title: withoutServerPaths(parsed.title),
      text: withoutServerPaths(parsed.text),
      date,
      messageType: parsed.message_type,
      reportId,
      agentId: parsed.agent_id ?? null,
      status,
      ip: input.ip?.slice(0, 64) ?? null,
      recipientId: input.userId ?? null,
      notifies: createsNotification({ status, message_type: parsed.message_type }),
    });
    if (!row) throw new ApiError(409, 'conflict', `A message with id ${parsed.id} was already published.`);
    const message = present(row, UNREAD);
    if (status && isHeartbeat(status) && row.reportId && row.agentId) {
      await this.repository.recordHeartbeat({
        reportId: row.reportId,
        agentId: row.agentId,
        status,
        ip: row.ip,
        at: date,
      });
    }
    // A report's broadcast messages are one ordered stream: a receiver that missed one (its publisher
    // died after storing it) reads it back before this one (`catchUp`).
    const stream =
      row.reportId && !input.userId
        ? { key: row.reportId, seq: row.seq, prev: await this.repository.previousSeq(row.reportId, row.seq) }
        : undefined;
    await this.broker.publish({
      destination: input.userId ? USER_DESTINATION : BROADCAST_DESTINATION,
      body: json.encode(JSON.stringify(message)),
      headers: { 'content-type': 'application/json' },
      audience,
      ...(input.userId ? { userId: input.userId } : {}),
      ...(stream ? { stream } : {}),
    });
    if (row.reportId) {
      await this.repository.trimHistory(row.reportId, await this.historyLimit(), WS_HISTORY_TRIM_SLACK);
    }
    return message;
  }

  /** The broker's catch-up: a report's stored broadcast messages in a gap, as deliveries like `like`. */
  async missed(reportId: string, after: number, before: number, like: Delivery): Promise<Delivery[]> {
    const rows = await this.repository.between(reportId, after, before);
    return rows.map((row, i) => ({
      destination: BROADCAST_DESTINATION,
      body: json.encode(JSON.stringify(present(row, UNREAD))),
      headers: like.headers,
      audience: like.audience,
      stream: { key: reportId, seq: row.seq, prev: rows[i - 1]?.seq ?? after },
    }));
  }

  /** A report's history and heart-beats: for readers of its team's reports (403 otherwise). */
  async history(reader: ReportReader, reportId: string, page: number, perPage: number) {
    await this.mayReadReport(reader, reportId);
    const { items, total } = await this.repository.history(reportId, page, perPage);
    return { items: items.map((row) => present(row, UNREAD)), total };
  }

  async heartbeats(reader: ReportReader, reportId: string) {
    await this.mayReadReport(reader, reportId);
    return this.repository.heartbeats(reportId);
  }

  async notifications(userId: string, reader: ReportReader, page: number, perPage: number): Promise<NotificationPage> {
    const who = this.readerOf(userId, reader);
    const { rows, total, unread } = await this.repository.notifications(who, page, perPage);
    return { items: rows.map(({ row, readed }) => present(row, { readed, hidded: false })), total, unread };
  }

  async markRead(userId: string, reader: ReportReader, id: string): Promise<{ unread: number }> {
    const who = this.readerOf(userId, reader);
    await this.repository.setFlag(userId, await this.seqOf(who, id), 'readed');
    return { unread: await this.repository.unreadCount(who) };
  }

  async hide(userId: string, reader: ReportReader, id: string): Promise<{ unread: number }> {
    const who = this.readerOf(userId, reader);
    await this.repository.setFlag(userId, await this.seqOf(who, id), 'hidded');
    return { unread: await this.repository.unreadCount(who) };
  }

  async readAll(userId: string, reader: ReportReader): Promise<{ unread: number }> {
    await this.repository.readAll(userId);
    return { unread: await this.repository.unreadCount(this.readerOf(userId, reader)) };
  }

  private readerOf(userId: string, reader: ReportReader): Reader {
    if (!reader.readsReports) return { userId, reports: 'none' };
    if (reader.everyTeam) return { userId, reports: 'all' };
    return { userId, reports: this.owners.keysOfTeams([...reader.teamIds]) };
  }

  private async mayReadReport(reader: ReportReader, reportId: string): Promise<void> {
    if (reader.everyTeam) return;
    const owner = await this.owners.ownerOf(reportId);
    if (!owner || !reader.teamIds.has(owner.teamId)) {
      throw new ApiError(403, 'forbidden', "Only members of the report's team may read its messages.");
    }
  }

  /** Someone else's notification, or one the user may not read, answers like a missing one. */
  private async seqOf(reader: Reader, id: string): Promise<number> {
    const seq = await this.repository.notificationSeq(reader, id);
    if (seq === null) throw new ApiError(404, 'not-found', 'No such notification.');
    return seq;
  }
}
