import { DEFAULT_SETTINGS, type Settings, SettingsSchema, type UserData } from '@sextant/api';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { roles, settings, users } from '../../db/schema/index.ts';

/** Loads the caller's userData (spec point 3) and the system settings, per request. */
export class Principals {
  constructor(private readonly db: Db) {}

  async settings(): Promise<Settings> {
    const rows = await this.db.select().from(settings);
    const stored = Object.fromEntries(rows.map((r) => [r.key, r.value]));
    return SettingsSchema.parse({ ...DEFAULT_SETTINGS, ...stored });
  }

  async load(userId: string): Promise<{ userData: UserData; settings: Settings; profile: Profile } | undefined> {
    const [row] = await this.db
      .select({ user: users, role: roles })
      .from(users)
      .innerJoin(roles, eq(roles.id, users.roleId))
      .where(eq(users.id, userId));
    if (!row?.user.enabled) return undefined;
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
