import { date, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { apps } from './apps.ts';
import { projects } from './projects.ts';

/** A version of one app within a project: the git refs a report compares (new against base). */
export const versions = pgTable(
  'versions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'restrict' }),
    appId: uuid('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'restrict' }),
    name: text('name').notNull(),
    newRef: text('new_ref').notNull(),
    baseRef: text('base_ref').notNull(),
    plannedRelease: date('planned_release'),
    status: text('status').notNull().default('planned'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique('versions_project_app_name_unique').on(t.projectId, t.appId, t.name)],
);
