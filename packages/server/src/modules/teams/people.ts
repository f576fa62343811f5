import type { UserRef } from '@sextant/api';
import { asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { teamMembers, users } from '../../db/schema/index.ts';

/** Username and display name of the given users (leaders, owners), for showing who is meant. */
export async function userRefs(db: Db, ids: (string | null)[]): Promise<Map<string, UserRef>> {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await db
    .select({ id: users.id, username: users.username, displayName: users.displayName })
    .from(users)
    .where(inArray(users.id, wanted));
  return new Map(rows.map((r) => [r.id, r]));
}

/** User ids by username, for imports that name people by username. */
export async function userIdsByUsername(db: Db, usernames: string[]): Promise<Map<string, string>> {
  const wanted = [...new Set(usernames)];
  if (wanted.length === 0) return new Map();
  const rows = await db
    .select({ id: users.id, username: users.username })
    .from(users)
    .where(inArray(users.username, wanted));
  return new Map(rows.map((r) => [r.username, r.id]));
}

/** The members of these teams, each team's by username (the users are read where the users table is). */
export async function teamPeople(db: Db, teamIds: string[]) {
  if (teamIds.length === 0) return [];
  return db
    .select({ teamId: teamMembers.teamId, id: users.id, username: users.username, displayName: users.displayName })
    .from(teamMembers)
    .innerJoin(users, eq(users.id, teamMembers.userId))
    .where(inArray(teamMembers.teamId, teamIds))
    .orderBy(asc(users.username));
}

/** Who owns each of these rows, as shown beside it (null for none). */
export async function ownersOf(
  db: Db,
  rows: { ownerId: string | null }[],
): Promise<(ownerId: string | null) => UserRef | null> {
  const refs = await userRefs(
    db,
    rows.map((r) => r.ownerId),
  );
  return (ownerId) => (ownerId && refs.get(ownerId)) || null;
}
