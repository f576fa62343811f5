import { date, index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { apps } from './apps.ts';
import { teams } from './teams.ts';
import { users } from './users.ts';

export const projects = pgTable('projects', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull().unique(),
  teamId: uuid('team_id')
    .notNull()
    .references(() => teams.id, { onDelete: 'restrict' }),
  ownerId: uuid('owner_id').references(() => users.id, { onDelete: 'restrict' }),
  startDate: date('start_date'),
  endDate: date('end_date'),
  status: text('status').notNull().default('planned'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The apps a project delivers; an app in a project cannot be deleted. */
export const projectApps = pgTable(
  'project_apps',
  {
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    appId: uuid('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'restrict' }),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.appId] }), index('project_apps_app_idx').on(t.appId)],
);
