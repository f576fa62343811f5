import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { roles } from './roles.ts';

export const users = pgTable('users', {
  id: uuid('id').primaryKey().defaultRandom(),
  username: text('username').notNull().unique(),
  // The name as compared (NFKC, lower case, no invisible characters): `Admin` and `admin` + U+200B clash.
  usernameKey: text('username_key').notNull().unique(),
  email: text('email').notNull().unique(),
  displayName: text('display_name').notNull().default(''),
  passwordHash: text('password_hash').notNull(),
  roleId: uuid('role_id')
    .notNull()
    .references(() => roles.id),
  usertypes: integer('usertypes').array().notNull().default(sql`'{}'::int[]`),
  enabled: boolean('enabled').notNull().default(true),
  preferences: jsonb('preferences').notNull().default({}),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The names and e-mail addresses a user commits under (issue 34): blame authors are matched to the
 * user through them and the account's e-mail. `identity_key` (lower case) is unique: one identity,
 * one person.
 */
export const userGitIdentities = pgTable(
  'user_git_identities',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    identity: text('identity').notNull(),
    identityKey: text('identity_key').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('user_git_identities_user_idx').on(t.userId)],
);
