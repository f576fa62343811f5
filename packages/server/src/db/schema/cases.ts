import { sql } from 'drizzle-orm';
import { pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { apps } from './apps.ts';
import { requirements } from './requirements.ts';
import { users } from './users.ts';

/** A test case of an app, manual or automated, optionally covering a requirement. */
export const cases = pgTable(
  'cases',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    key: text('key').notNull(),
    title: text('title').notNull(),
    appId: uuid('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'restrict' }),
    requirementId: uuid('requirement_id').references(() => requirements.id, { onDelete: 'restrict' }),
    type: text('type').notNull(),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    ownerId: uuid('owner_id').references(() => users.id, { onDelete: 'restrict' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique('cases_app_key_unique').on(t.appId, t.key)],
);
