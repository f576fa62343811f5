import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * Every message of the message centre (specification point 3). `seq` orders history and notifications;
 * `recipient_id` is null for messages to everyone. Report history is trimmed per report (point 4).
 */
export const messages = pgTable(
  'messages',
  {
    seq: bigserial('seq', { mode: 'number' }).primaryKey(),
    id: text('id').notNull().unique(),
    title: text('title').notNull(),
    text: text('text').notNull(),
    date: timestamp('date', { withTimezone: true }).notNull().defaultNow(),
    messageType: text('message_type').notNull(),
    reportId: text('report_id'),
    agentId: text('agent_id'),
    status: text('status'),
    ip: text('ip'),
    recipientId: uuid('recipient_id').references(() => users.id, { onDelete: 'cascade' }),
    notifies: boolean('notifies').notNull().default(false),
  },
  (t) => [
    index('messages_report_idx').on(t.reportId, t.seq),
    index('messages_notifies_idx').on(t.seq).where(sql`${t.notifies}`),
  ],
);

/** A user's own flags on a notification; absent means unread and shown (both start false). */
export const notificationStates = pgTable(
  'notification_states',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    messageSeq: bigint('message_seq', { mode: 'number' })
      .notNull()
      .references(() => messages.seq, { onDelete: 'cascade' }),
    readed: boolean('readed').notNull().default(false),
    hidded: boolean('hidded').notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.userId, t.messageSeq] })],
);

/** "Mark all read": every notification up to `read_through` counts as read for that user. */
export const notificationCursors = pgTable('notification_cursors', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  readThrough: bigint('read_through', { mode: 'number' }).notNull(),
});

/** The last heart-beat of each agent per report (HEART_BEAT_DONE / HEART_BEAT_ERROR, point 4). */
export const agentHeartbeats = pgTable(
  'agent_heartbeats',
  {
    reportId: text('report_id').notNull(),
    agentId: text('agent_id').notNull(),
    status: text('status').notNull(),
    ip: text('ip'),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.reportId, t.agentId] })],
);
