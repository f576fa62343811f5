import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { projects } from './projects.ts';
import { users } from './users.ts';
import { versions } from './versions.ts';

/** A requirement; commits whose message contains its key are linked to it. */
export const requirements = pgTable('requirements', {
  id: uuid('id').primaryKey().defaultRandom(),
  key: text('key').notNull().unique(),
  title: text('title').notNull(),
  projectId: uuid('project_id')
    .notNull()
    .references(() => projects.id, { onDelete: 'restrict' }),
  versionId: uuid('version_id').references(() => versions.id, { onDelete: 'restrict' }),
  ownerId: uuid('owner_id').references(() => users.id, { onDelete: 'restrict' }),
  status: text('status').notNull().default('open'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
