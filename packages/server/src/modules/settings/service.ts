import { DEFAULT_SETTINGS, type Settings, SettingsSchema } from '@sextant/api';
import { ApiError } from '../../errors.ts';
import type { Executor } from '../../lib/table-repository.ts';
import { type Actor, type AuditEntry, type AuditService, changedFields } from '../audit/service.ts';
import type { Principals } from '../auth/principals.ts';
import { SettingsRepository } from './repository.ts';

/** The system settings as stored, over the defaults (the auth module's principals cache them for every request). */
export async function readSettings(db: Executor): Promise<Settings> {
  return SettingsSchema.parse({ ...DEFAULT_SETTINGS, ...(await new SettingsRepository().all(db)) });
}

/** Every stored value by key, beyond the schema's (the ZenTao account's keys live beside the settings). */
export function readSettingValues(db: Executor): Promise<Record<string, unknown>> {
  return new SettingsRepository().all(db);
}

/** Stores values by key in the caller's transaction (the caller audits and invalidates the cache). */
export function saveSettingValues(tx: Executor, entries: [key: string, value: unknown][]): Promise<void> {
  return new SettingsRepository().save(tx, entries);
}

/** Rules across fields: a passing grade above the excellent one, or warn above serious, makes no sense. */
function refuseInconsistent(next: Settings): void {
  const fields: Record<string, string> = {};
  if (next.passingGrade > next.excellentGrade) {
    fields.passingGrade = 'The passing grade must not be above the excellent grade.';
  }
  if (next.traceWarnThreshold >= next.traceSeriousThreshold) {
    fields.traceWarnThreshold = 'The warning threshold must be below the serious one.';
  }
  const first = Object.values(fields)[0];
  if (first) throw new ApiError(400, 'validation-failed', first, fields);
}

/** The system settings: read through the principals' cache (auth), changed here with an audit entry. */
export class SettingsService {
  constructor(
    private readonly rows: SettingsRepository,
    private readonly audit: AuditService,
    private readonly principals: Principals,
  ) {}

  get(): Promise<Settings> {
    return this.principals.settings();
  }

  async update(change: Partial<Settings>, actor: Actor): Promise<Settings> {
    const before = await this.principals.settings();
    refuseInconsistent({ ...before, ...change });
    const entries = Object.entries(change).filter(([, v]) => v !== undefined);
    await this.audit.audited(actor, async (tx) => {
      await this.rows.save(tx, entries);
      const changes = changedFields(before, { ...before, ...Object.fromEntries(entries) });
      return {
        result: null,
        entry: { entity: 'settings', entityId: 'system', action: 'update', changes } satisfies AuditEntry,
      };
    });
    this.principals.invalidate();
    return this.principals.settings();
  }
}
