import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { teamMembers, teams } from '../../db/schema/index.ts';

/** The teams a user belongs to, as a member or as the leader. */
export async function teamIdsOf(db: Db, userId: string): Promise<Set<string>> {
  const [members, led] = await Promise.all([
    db.select({ teamId: teamMembers.teamId }).from(teamMembers).where(eq(teamMembers.userId, userId)),
    db.select({ teamId: teams.id }).from(teams).where(eq(teams.leaderId, userId)),
  ]);
  return new Set([...members, ...led].map((r) => r.teamId));
}
