import type { Settings, UserData } from '@sextant/api';
import type { Db } from '../../db/client.ts';
import { RolesService } from '../roles/service.ts';
import { readSettings } from '../settings/service.ts';
import { Accounts } from '../users/accounts.ts';
import { AuthRepository } from './repository.ts';

type Loaded = { userData: UserData; settings: Settings; profile: Profile };

/**
 * Loads the caller's userData (spec point 3) and the system settings. Every request needs them, so
 * loads are shared while in flight and kept for CACHE_MS: a role or account change made elsewhere
 * (another instance) shows within that time; changes made here call `invalidate()` and show at once.
 */
export const CACHE_MS = 2000;

export class Principals {
  private readonly users = new Map<string, { at: number; value: Promise<Loaded | undefined> }>();
  private cachedSettings: { at: number; value: Promise<Settings> } | null = null;
  private readonly endedSessions = new Map<string, { at: number; value: Promise<boolean> }>();

  private readonly rows: AuthRepository;
  private readonly accounts: Accounts;
  private readonly roles: RolesService;

  constructor(private readonly db: Db) {
    this.rows = new AuthRepository(db);
    this.accounts = new Accounts(db);
    this.roles = new RolesService(db);
  }

  invalidate(): void {
    this.users.clear();
    this.endedSessions.clear();
    this.cachedSettings = null;
  }

  forgetSession(sessionId: string): void {
    this.endedSessions.delete(sessionId);
  }

  /**
   * Whether a session was ended (signed out, revoked from the session list, or by a password
   * change): its access tokens stop working then, not only when they expire. Cached like userData.
   */
  sessionEnded(sessionId: string): Promise<boolean> {
    const now = Date.now();
    const hit = this.endedSessions.get(sessionId);
    if (hit && now - hit.at < CACHE_MS) return hit.value;
    if (this.endedSessions.size > 10_000) this.endedSessions.clear();
    const value = this.rows.familyRevoked(sessionId);
    this.endedSessions.set(sessionId, { at: now, value });
    value.catch(() => this.endedSessions.delete(sessionId));
    return value;
  }

  settings(): Promise<Settings> {
    const now = Date.now();
    if (this.cachedSettings && now - this.cachedSettings.at < CACHE_MS) return this.cachedSettings.value;
    const value = this.readSettings();
    this.cachedSettings = { at: now, value };
    value.catch(() => {
      this.cachedSettings = null;
    });
    return value;
  }

  load(userId: string): Promise<Loaded | undefined> {
    const now = Date.now();
    const hit = this.users.get(userId);
    if (hit && now - hit.at < CACHE_MS) return hit.value;
    if (this.users.size > 10_000) this.users.clear();
    const value = this.read(userId);
    this.users.set(userId, { at: now, value });
    value.catch(() => this.users.delete(userId));
    return value;
  }

  private readSettings(): Promise<Settings> {
    return readSettings(this.db);
  }

  private async read(userId: string): Promise<Loaded | undefined> {
    const user = await this.accounts.find(userId);
    if (!user?.enabled) return undefined;
    const role = await this.roles.byId(user.roleId);
    if (!role) return undefined;
    const row = { user, role };
    const s = await this.settings();
    return {
      settings: s,
      userData: {
        userid: row.user.id,
        usertypes: row.user.usertypes,
        resourceNums: row.role.resourceNums,
        performanceRiskRules: {
          trace_consuming_time_serious_threshold: s.traceSeriousThreshold,
          trace_consuming_time_warn_threshold: s.traceWarnThreshold,
        },
        ability: row.role.abilities,
        role: row.role.name,
      },
      profile: {
        username: row.user.username,
        displayName: row.user.displayName,
        email: row.user.email,
        preferences: (row.user.preferences ?? {}) as Profile['preferences'],
      },
    };
  }
}

export type Profile = { username: string; displayName: string; email: string; preferences: Record<string, string> };
