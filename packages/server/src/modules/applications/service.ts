import { randomBytes } from 'node:crypto';
import { hash } from '@node-rs/argon2';
import type { Application } from '@sextant/api';
import { eq, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { passwordResets, roles, users } from '../../db/schema/index.ts';
import { ApiError } from '../../errors.ts';
import { opaqueToken, tokenHash } from '../auth/tokens.ts';
import { type Rights, refuseEscalation } from '../roles/grants.ts';
import { type ApplicationRecord, ApplicationsRepository } from './repository.ts';

const RESET_TTL_MS = 24 * 3600_000;

function toApplication(row: ApplicationRecord): Application {
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
  private readonly requests: ApplicationsRepository;

  constructor(private readonly db: Db) {
    this.requests = new ApplicationsRepository(db);
  }

  async list(query: { page: number; perPage: number; q?: string; status?: Application['status'] }) {
    const { rows, total } = await this.requests.listPage(query);
    return { items: rows.map(toApplication), total };
  }

  private async pending(id: string) {
    const row = await this.requests.find(id);
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
      await this.requests.decide(tx, id, {
        status: 'approved',
        decidedBy: deciderId,
        decisionNote: `role ${role.name}`,
      });
      return user.id;
    });
    return {
      userId,
      resetLink: { token, url: `/pages/dashboard/reset-password?token=${token}`, expiresAt: expiresAt.toISOString() },
    };
  }

  async reject(id: string, reason: string, deciderId: string): Promise<void> {
    await this.pending(id);
    await this.requests.decide(this.db, id, { status: 'rejected', decidedBy: deciderId, decisionNote: reason });
  }
}
