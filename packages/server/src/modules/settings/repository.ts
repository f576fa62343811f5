import { settings } from '../../db/schema/index.ts';
import type { Executor } from '../../lib/table-repository.ts';

/** The only SQL of the settings module (the auth module's principals read the settings it serves). */
export class SettingsRepository {
  /** Stores each value under its key, replacing the one it had. */
  async save(tx: Executor, entries: [key: string, value: unknown][]): Promise<void> {
    for (const [key, value] of entries) {
      await tx.insert(settings).values({ key, value }).onConflictDoUpdate({ target: settings.key, set: { value } });
    }
  }
}
