import { settings } from '../../db/schema/index.ts';
import type { Executor } from '../../lib/table-repository.ts';

/** The only SQL of the settings module (the auth module's principals cache what `readSettings` reads). */
export class SettingsRepository {
  /** Every stored value by key (keys never stored keep their defaults). */
  async all(executor: Executor): Promise<Record<string, unknown>> {
    const rows = await executor.select().from(settings);
    return Object.fromEntries(rows.map((r) => [r.key, r.value]));
  }

  /** Stores each value under its key, replacing the one it had. */
  async save(tx: Executor, entries: [key: string, value: unknown][]): Promise<void> {
    for (const [key, value] of entries) {
      await tx.insert(settings).values({ key, value }).onConflictDoUpdate({ target: settings.key, set: { value } });
    }
  }
}
