import { randomBytes } from 'node:crypto';
import { hash } from '@node-rs/argon2';
import type { Application } from '@sextant/api';
import { and, count, desc, eq, ilike, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { applications, passwordResets, roles, users } from '../../db/schema/index.ts';
import { ApiError } from '../../errors.ts';
import { opaqueToken, tokenHash } from '../auth/tokens.ts';
import { type Rights, refuseEscalation } from '../roles/grants.ts';

const RESET_TTL_MS = 24 * 3600_000;

function toApplication(row: typeof applications.$inferSelect): Application {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    displayName: row.displayName,
    team: row.team,
    wantedRole: row.wantedRole,
    reason: row.reason,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    decidedAt: row.decidedAt?.toISOString() ?? null,
    decisionNote: row.decisionNote,
  };
}

/** Access requests from `/apply`, decided on `/system/applyList`. */
export class ApplicationsService {
  constructor(private readonly db: Db) {}

  async list(query: { page: number; perPage: number; q?: string; status?: Application['status'] }) {
    const pattern = query.q ? `%${query.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
    const where = and(
      query.status ? eq(applications.status, query.status) : undefined,
      pattern ? or(ilike(applications.username, pattern), ilike(applications.email, pattern)) : undefined,
    );
    const rows = await this.db
      .select()
      .from(applications)
      .where(where)
      .orderBy(desc(applications.createdAt), applications.id)
      .limit(query.perPage)
      .offset((query.page - 1) * query.perPage);
    const [total] = await this.db.select({ n: count() }).from(applications).where(where);
    return { items: rows.map(toApplication), total: total?.n ?? 0 };
  }

  private async pending(id: string) {
    const [row] = await this.db.select().from(applications).where(eq(applications.id, id));
    if (!row) throw new ApiError(404, 'not-found', 'No such request.');
    if (row.status !== 'pending') throw new ApiError(409, 'conflict', `This request was already ${row.status}.`);
    return row;
  }

  /** Creates the account with the chosen role and a single-use link the admin passes on. */
  async approve(id: string, roleName: string, decider: Rights & { id: string }) {
    const deciderId = decider.id;
    const request = await this.pending(id);
    const [role] = await this.db.select().from(roles).where(eq(roles.name, roleName));
    if (!role) throw new ApiError(400, 'validation-failed', 'Unknown role.', { role: 'Unknown role.' });
    refuseEscalation({ ability: role.abilities, resourceNums: role.resourceNums }, decider, `The role ${role.name}`);
    const [clash] = await this.db
      .select({ id: users.id })
      .from(users)
      .where(or(eq(users.usernameKey, request.usernameKey), eq(users.email, request.email)));
    if (clash) throw new ApiError(409, 'conflict', 'An account with this username or email exists already.');
    const token = opaqueToken();
    const expiresAt = new Date(Date.now() + RESET_TTL_MS);
    const userId = await this.db.transaction(async (tx) => {
      const [user] = await tx
        .insert(users)
        .values({
          username: request.username,
          usernameKey: request.usernameKey,
          email: request.email,
          displayName: request.displayName,
          passwordHash: await hash(randomBytes(24).toString('base64url'), { algorithm: 2 }),
          roleId: role.id,
        })
        .returning({ id: users.id });
      if (!user) throw new Error('insert returned no row');
      await tx.insert(passwordResets).values({ tokenHash: tokenHash(token), userId: user.id, expiresAt });
      await tx
        .update(applications)
        .set({ status: 'approved', decidedBy: deciderId, decidedAt: new Date(), decisionNote: `role ${role.name}` })
        .where(and(eq(applications.id, id), eq(applications.status, 'pending')));
      return user.id;
    });
    return {
      userId,
      resetLink: { token, url: `/pages/dashboard/reset-password?token=${token}`, expiresAt: expiresAt.toISOString() },
    };
  }

  async reject(id: string, reason: string, deciderId: string): Promise<void> {
    await this.pending(id);
    await this.db
      .update(applications)
      .set({ status: 'rejected', decidedBy: deciderId, decidedAt: new Date(), decisionNote: reason })
      .where(and(eq(applications.id, id), eq(applications.status, 'pending')));
  }
}
