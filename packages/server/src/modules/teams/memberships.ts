import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { teamMembers, teams } from '../../db/schema/index.ts';

/** How long a user's teams are kept: every open socket asks again every few seconds (SEXTANT_WS_RECHECK_MS). */
const CACHE_MS = 1000;

/** The teams a user belongs to, as a member or as the leader; reads are shared for a second. */
export class TeamMemberships {
  private readonly cache = new Map<string, { at: number; value: Promise<Set<string>> }>();

  constructor(private readonly db: Db) {}

  of(userId: string): Promise<Set<string>> {
    const now = Date.now();
    const hit = this.cache.get(userId);
    if (hit && now - hit.at < CACHE_MS) return hit.value;
    if (this.cache.size > 10_000) this.cache.clear();
    const value = this.read(userId);
    this.cache.set(userId, { at: now, value });
    value.catch(() => this.cache.delete(userId));
    return value;
  }

  private async read(userId: string): Promise<Set<string>> {
    const [members, led] = await Promise.all([
      this.db.select({ teamId: teamMembers.teamId }).from(teamMembers).where(eq(teamMembers.userId, userId)),
      this.db.select({ teamId: teams.id }).from(teams).where(eq(teams.leaderId, userId)),
    ]);
    return new Set([...members, ...led].map((r) => r.teamId));
  }
}
