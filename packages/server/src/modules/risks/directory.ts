import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

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
};

export function sqlDirectory(db: Db): RiskDirectory {
  return {
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
}

/** The e-mail inside a git identity `Name <mail>` (blame's author), lower case; null without one. */
export function emailOf(author: string | null): string | null {
  const match = author?.match(/<([^<>\s]+@[^<>\s]+)>\s*$/);
  return match?.[1] ? match[1].toLowerCase() : null;
}
