import { boolean, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { apps } from './apps.ts';

/** Branches discovered from an app's repository; `tracked` marks the ones reports follow. */
export const branches = pgTable(
  'branches',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    appId: uuid('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    commit: text('commit').notNull(),
    tracked: boolean('tracked').notNull().default(false),
    // False once a refresh no longer finds the branch; kept so a tracked branch is not silently lost.
    present: boolean('present').notNull().default(true),
    refreshedAt: timestamp('refreshed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique('branches_app_name_unique').on(t.appId, t.name)],
);
