import { authorIs, type IdentityKeys } from '@sextant/api';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { gitIdentityReads } from '../users/index.ts';

export type AppEntry = { id: string; name: string; teamId: string };
export type Person = { id: string; username: string; email: string };

/**
 * What the risks module needs to know of apps, projects and people. Read-only questions answered
 * from the owners' tables by name until the apps, projects and users services (issue 33, being
 * reshaped in parallel) offer them; index.ts may be handed any other implementation.
 */
export type RiskDirectory = {
  apps(filter: {
    teamIds?: readonly string[];
    teamId?: string;
    projectId?: string;
    appId?: string;
    appIds?: readonly string[];
  }): Promise<AppEntry[]>;
  people(ids: readonly string[]): Promise<Person[]>;
  peopleByEmail(emails: readonly string[]): Promise<Person[]>;
  /** A user's e-mail and git identities (users module), to match blame authors. */
  identityKeysOf(userId: string): Promise<IdentityKeys | null>;
  /** The users behind blame authors: by account e-mail, or by the identities a user lists. */
  peopleByAuthors(authors: readonly string[]): Promise<Map<string, Person>>;
};

export function sqlDirectory(db: Db): RiskDirectory {
  const identities = gitIdentityReads(db);
  const directory: RiskDirectory = {
    identityKeysOf: (userId) => identities.keysOf(userId),
    async peopleByAuthors(authors) {
      const found = new Map<string, Person>();
      const listing = await identities.peopleWithIdentities();
      for (const author of authors) {
        const person = listing.find((p) => authorIs(author, p.keys));
        if (person) found.set(author, { id: person.id, username: person.username, email: person.email });
      }
      const rest = authors.filter((a) => !found.has(a));
      const byEmail = new Map(
        (await directory.peopleByEmail(rest.flatMap((a) => emailOf(a) ?? []))).map((p) => [p.email.toLowerCase(), p]),
      );
      for (const author of rest) {
        const person = byEmail.get(emailOf(author) ?? '');
        if (person) found.set(author, person);
      }
      return found;
    },
    async apps(filter) {
      const where = [sql`true`];
      if (filter.teamIds) where.push(sql`a.team_id = any(${sql.param([...filter.teamIds])}::uuid[])`);
      if (filter.teamId) where.push(sql`a.team_id = ${filter.teamId}`);
      if (filter.appId) where.push(sql`a.id = ${filter.appId}`);
      if (filter.appIds) where.push(sql`a.id = any(${sql.param([...filter.appIds])}::uuid[])`);
      if (filter.projectId) {
        where.push(sql`a.id in (select app_id from project_apps where project_id = ${filter.projectId})`);
      }
      const { rows } = await db.execute(
        sql`select a.id, a.name, a.team_id from apps a where ${sql.join(where, sql` and `)} order by a.name`,
      );
      return rows.map((r) => ({ id: String(r.id), name: String(r.name), teamId: String(r.team_id) }));
    },
    async people(ids) {
      if (ids.length === 0) return [];
      const { rows } = await db.execute(
        sql`select id, username, email from users where id = any(${sql.param([...ids])}::uuid[])`,
      );
      return rows.map((r) => ({ id: String(r.id), username: String(r.username), email: String(r.email) }));
    },
    async peopleByEmail(emails) {
      if (emails.length === 0) return [];
      const lower = [...new Set(emails.map((e) => e.toLowerCase()))];
      const { rows } = await db.execute(
        sql`select id, username, email from users where lower(email) = any(${sql.param(lower)}::text[]) and enabled`,
      );
      return rows.map((r) => ({ id: String(r.id), username: String(r.username), email: String(r.email) }));
    },
  };
  return directory;
}

/** The e-mail inside a git identity `Name <mail>` (blame's author), lower case; null without one. */
export function emailOf(author: string | null): string | null {
  const match = author?.match(/<([^<>\s]+@[^<>\s]+)>\s*$/);
  return match?.[1] ? match[1].toLowerCase() : null;
}
