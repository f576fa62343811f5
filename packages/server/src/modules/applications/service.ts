import type { Application } from '@sextant/api';
import type { Db } from '../../db/client.ts';
import { ApiError } from '../../errors.ts';
import type { Executor } from '../../lib/table-repository.ts';
import { PasswordResets } from '../auth/password-resets.ts';
import { networkOf, Throttle } from '../auth/throttle.ts';
import { type Rights, refuseEscalation } from '../roles/grants.ts';
import { RolesService } from '../roles/service.ts';
import { Accounts } from '../users/accounts.ts';
import { hashPassword } from '../users/service.ts';
import { refuseTakenNames, usernameKey } from '../users/usernames.ts';
import { type ApplicationRecord, ApplicationsRepository } from './repository.ts';

/** Access requests per network and hour: enough for a person, too few to test which names exist. */
export const REGISTRATIONS_PER_HOUR = 5;

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
  private readonly registrations: Throttle;

  constructor(private readonly db: Db) {
    this.requests = new ApplicationsRepository(db);
    this.registrations = new Throttle(
      db,
      'register',
      REGISTRATIONS_PER_HOUR,
      3600_000,
      'Too many access requests from your network; try again later.',
    );
  }

  /**
   * A request from `/apply`. A name or email an account or a pending request holds is refused with
   * its reason (specification point 5); the hard limit per network keeps that from listing accounts.
   */
  async apply(
    input: {
      username: string;
      email: string;
      displayName?: string;
      teamId?: string;
      wantedRole?: string;
      reason?: string;
    },
    ip: string,
  ): Promise<void> {
    await this.registrations.take(networkOf(ip));
    const key = usernameKey(input.username);
    const email = input.email.toLowerCase();
    const held = [
      ...(await new Accounts(this.db).namesHeld(key, email)),
      ...(await this.namesHeld(this.db, key, email)),
    ];
    refuseTakenNames(held, key, email);
    await this.requests.insert(this.db, {
      username: input.username,
      usernameKey: key,
      email,
      displayName: input.displayName ?? '',
      team: input.teamId ?? null,
      wantedRole: input.wantedRole ?? null,
      reason: input.reason ?? '',
    });
  }

  /** Pending requests holding this compared username or this email (the users module checks new accounts against them). */
  namesHeld(executor: Executor, key: string, email: string): Promise<{ key: string; email: string }[]> {
    return this.requests.pendingHolding(executor, key, email);
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
    const role = await new RolesService(this.db).named(roleName);
    refuseEscalation({ ability: role.abilities, resourceNums: role.resourceNums }, decider, `The role ${role.name}`);
    if ((await new Accounts(this.db).namesHeld(request.usernameKey, request.email)).length > 0) {
      throw new ApiError(409, 'conflict', 'An account with this username or email exists already.');
    }
    const passwordHash = await hashPassword();
    return this.db.transaction(async (tx) => {
      const userId = await new Accounts(tx).create({
        username: request.username,
        usernameKey: request.usernameKey,
        email: request.email,
        displayName: request.displayName,
        passwordHash,
        roleId: role.id,
      });
      const resetLink = await new PasswordResets(tx).issue(userId);
      await this.requests.decide(tx, id, {
        status: 'approved',
        decidedBy: deciderId,
        decisionNote: `role ${role.name}`,
      });
      return { userId, resetLink };
    });
  }

  async reject(id: string, reason: string, deciderId: string): Promise<void> {
    await this.pending(id);
    await this.requests.decide(this.db, id, { status: 'rejected', decidedBy: deciderId, decisionNote: reason });
  }
}
