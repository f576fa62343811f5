import type { AgentHeartbeat, Message } from '@sextant/api';
import { and, asc, count, desc, eq, gt, isNull, lt, lte, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { agentHeartbeats, messages, notificationCursors, notificationStates } from '../../db/schema/index.ts';

export type MessageRow = typeof messages.$inferSelect;

/**
 * Whose stored messages are asked for: a user's own and everyone's, and of the messages about reports,
 * all, none (no Report read), or those of the reports a query selects (the user's teams').
 */
export type Reader = { userId: string; reports: 'all' | 'none' | SQL };
export type NewMessage = typeof messages.$inferInsert;

export function toMessage(row: MessageRow, flags: { readed: boolean; hidded: boolean }): Message {
  return {
    id: row.id,
    title: row.title,
    text: row.text,
    date: row.date.toISOString(),
    message_type: row.messageType,
    readed: flags.readed,
    hidded: flags.hidded,
    report_id: row.reportId,
    agent_id: row.agentId,
    status: row.status,
    ip: row.ip,
  };
}

/** The only SQL of the message centre. */
export class MessagesRepository {
  constructor(private readonly db: Db) {}

  /** Inserts a message; an id already stored answers null, so a re-sent message is not delivered twice. */
  async insert(message: NewMessage): Promise<MessageRow | null> {
    const [row] = await this.db
      .insert(messages)
      .values(message)
      .onConflictDoNothing({ target: messages.id })
      .returning();
    return row ?? null;
  }

  /** The seq of the report's broadcast message stored before `seq` (its live stream's previous one), or null. */
  async previousSeq(reportId: string, seq: number): Promise<number | null> {
    const [row] = await this.db
      .select({ seq: sql<number | null>`max(${messages.seq})`.mapWith(Number) })
      .from(messages)
      .where(and(eq(messages.reportId, reportId), lt(messages.seq, seq), isNull(messages.recipientId)));
    return row?.seq ?? null;
  }

  /** A report's broadcast messages stored after `after` and before `before`, oldest first (a live gap filled). */
  between(reportId: string, after: number, before: number): Promise<MessageRow[]> {
    return this.db
      .select()
      .from(messages)
      .where(
        and(
          eq(messages.reportId, reportId),
          gt(messages.seq, after),
          lt(messages.seq, before),
          isNull(messages.recipientId),
        ),
      )
      .orderBy(asc(messages.seq));
  }

  async recordHeartbeat(beat: { reportId: string; agentId: string; status: string; ip: string | null; at: Date }) {
    await this.db
      .insert(agentHeartbeats)
      .values(beat)
      .onConflictDoUpdate({
        target: [agentHeartbeats.reportId, agentHeartbeats.agentId],
        set: { status: beat.status, ip: beat.ip, at: beat.at },
        // A late, older heart-beat must not overwrite a newer one.
        setWhere: lte(agentHeartbeats.at, beat.at),
      });
  }

  async heartbeats(reportId: string): Promise<AgentHeartbeat[]> {
    const rows = await this.db
      .select()
      .from(agentHeartbeats)
      .where(eq(agentHeartbeats.reportId, reportId))
      .orderBy(asc(agentHeartbeats.agentId));
    return rows.map((r) => ({
      agent_id: r.agentId,
      status: r.status as AgentHeartbeat['status'],
      ip: r.ip,
      date: r.at.toISOString(),
    }));
  }

  /** Keeps the newest `keep` messages of a report once it holds more than `keep + slack` (point 4). */
  async trimHistory(reportId: string, keep: number, slack: number): Promise<number> {
    const [counted] = await this.db.select({ n: count() }).from(messages).where(eq(messages.reportId, reportId));
    if ((counted?.n ?? 0) <= keep + slack) return 0;
    const deleted = await this.db.execute(sql`
      delete from ${messages} where ${messages.reportId} = ${reportId} and ${messages.seq} <= (
        select ${messages.seq} from ${messages} where ${messages.reportId} = ${reportId}
        order by ${messages.seq} desc offset ${keep} limit 1)`);
    return deleted.rowCount ?? 0;
  }

  async history(reportId: string, page: number, perPage: number): Promise<{ items: MessageRow[]; total: number }> {
    const where = and(eq(messages.reportId, reportId), isNull(messages.recipientId));
    const [items, [counted]] = await Promise.all([
      this.db
        .select()
        .from(messages)
        .where(where)
        .orderBy(desc(messages.seq))
        .limit(perPage)
        .offset((page - 1) * perPage),
      this.db.select({ n: count() }).from(messages).where(where),
    ]);
    return { items, total: counted?.n ?? 0 };
  }

  /** A user's notifications, not hidden, unread first then newest first. */
  async notifications(reader: Reader, page: number, perPage: number) {
    const { state, cursor, visible, readed } = flagsOf(reader);
    const rows = await this.db
      .select({ row: messages, readed })
      .from(messages)
      .leftJoin(notificationStates, state)
      .leftJoin(notificationCursors, cursor)
      .where(visible)
      .orderBy(asc(readed), desc(messages.seq))
      .limit(perPage)
      .offset((page - 1) * perPage);
    const [totals] = await this.db
      .select({ total: count(), unread: sql<number>`count(*) filter (where not ${readed})`.mapWith(Number) })
      .from(messages)
      .leftJoin(notificationStates, state)
      .leftJoin(notificationCursors, cursor)
      .where(visible);
    return { rows, total: totals?.total ?? 0, unread: totals?.unread ?? 0 };
  }

  async unreadCount(reader: Reader): Promise<number> {
    const { state, cursor, visible, readed } = flagsOf(reader);
    const [row] = await this.db
      .select({ n: count() })
      .from(messages)
      .leftJoin(notificationStates, state)
      .leftJoin(notificationCursors, cursor)
      .where(and(visible, sql`not ${readed}`));
    return row?.n ?? 0;
  }

  /** The notification with this message id, if the user may see it. */
  async notificationSeq(reader: Reader, id: string): Promise<number | null> {
    const [row] = await this.db
      .select({ seq: messages.seq })
      .from(messages)
      .where(and(eq(messages.id, id), eq(messages.notifies, true), forUser(reader)));
    return row?.seq ?? null;
  }

  async setFlag(userId: string, messageSeq: number, flag: 'readed' | 'hidded'): Promise<void> {
    await this.db
      .insert(notificationStates)
      .values({ userId, messageSeq, [flag]: true })
      .onConflictDoUpdate({
        target: [notificationStates.userId, notificationStates.messageSeq],
        set: { [flag]: true },
      });
  }

  /** Marks everything published so far as read, with one row per user whatever the number of notifications. */
  async readAll(userId: string): Promise<void> {
    const [latest] = await this.db
      .select({ seq: sql<number | null>`max(${messages.seq})`.mapWith(Number) })
      .from(messages)
      .where(eq(messages.notifies, true));
    const readThrough = latest?.seq ?? 0;
    await this.db
      .insert(notificationCursors)
      .values({ userId, readThrough })
      .onConflictDoUpdate({
        target: notificationCursors.userId,
        set: { readThrough: sql`greatest(${notificationCursors.readThrough}, ${readThrough})` },
      });
  }
}

/** Joins and predicates giving a message's flags for one user: its own row, or the read-all cursor. */
function flagsOf(reader: Reader) {
  const { userId } = reader;
  const readed: SQL<boolean> = sql<boolean>`(coalesce(${notificationStates.readed}, false) or ${messages.seq} <= coalesce(${notificationCursors.readThrough}, 0))`;
  return {
    readed,
    state: and(eq(notificationStates.messageSeq, messages.seq), eq(notificationStates.userId, userId)),
    cursor: eq(notificationCursors.userId, userId),
    visible: and(
      eq(messages.notifies, true),
      forUser(reader),
      sql`coalesce(${notificationStates.hidded}, false) = false`,
    ),
  };
}

function forUser(reader: Reader) {
  const addressed = or(isNull(messages.recipientId), eq(messages.recipientId, reader.userId));
  if (reader.reports === 'all') return addressed;
  if (reader.reports === 'none') return and(addressed, isNull(messages.reportId));
  return and(addressed, or(isNull(messages.reportId), sql`${messages.reportId} in (${reader.reports})`));
}
