import { sql } from 'drizzle-orm';
import { index, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { teams } from './teams.ts';

/** An application under test: its repository and how coverage reaches the server. */
export const apps = pgTable(
  'apps',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'restrict' }),
    name: text('name').notNull(),
    language: text('language').notNull(),
    repoUrl: text('repo_url').notNull(),
    defaultBranch: text('default_branch').notNull(),
    coverageSource: text('coverage_source').notNull(),
    buildCommand: text('build_command'),
    environments: text('environments').array().notNull().default(sql`'{}'::text[]`),
    // Only the sha256 of the ingestion token is kept; the token itself is shown once.
    ingestionTokenHash: text('ingestion_token_hash').notNull().unique(),
    tokenIssuedAt: timestamp('token_issued_at', { withTimezone: true }).notNull().defaultNow(),
    status: text('status').notNull().default('active'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('apps_team_name_unique').on(t.teamId, t.name),
    // The report list sorted by app name walks apps in name order and each app's reports (issue 41).
    index('apps_name_idx').on(t.name, t.id),
  ],
);
