import { jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { apps } from './apps.ts';
import { bytea } from './upload-blobs.ts';

/**
 * A class file an agent sent (issue 38), kept by content per app when uploads are kept in the
 * database (ADR 0006): gzipped, so that a worker on any machine reads it.
 */
export const classBlobs = pgTable(
  'class_blobs',
  {
    appId: uuid('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    sha256: text('sha256').notNull(),
    data: bytea('data').notNull(),
  },
  (t) => [primaryKey({ columns: [t.appId, t.sha256] })],
);

/** One class of a recorded list: its JVM name, its content's sha256 and JaCoCo's class id of it. */
export type ClassListEntry = { name: string; sha256: string; classId: string };

/** A list of class files recorded for a commit (as sent), once per distinct list (keyed by its hash). */
export const classLists = pgTable(
  'class_lists',
  {
    appId: uuid('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    commit: text('commit').notNull(),
    listSha256: text('list_sha256').notNull(),
    classes: jsonb('classes').$type<ClassListEntry[]>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.appId, t.commit, t.listSha256] })],
);
