import {
  type ZentaoConfig,
  type ZentaoConfigInput,
  type ZentaoImportSummary,
  ZentaoImportSummarySchema,
  type ZentaoStatus,
} from '@sextant/api';
import type { Db } from '../../db/client.ts';
import { ApiError } from '../../errors.ts';
import type { Actor, AuditService } from '../audit/service.ts';
import type { Principals } from '../auth/principals.ts';
import { readSettingValues, saveSettingValues } from '../settings/service.ts';
import { Accounts } from '../users/accounts.ts';
import { type ZentaoAccount, ZentaoClient, ZentaoError } from './client.ts';
import { checkFrame } from './frame-check.ts';
import type { ImportActor, ZentaoImporter } from './importer.ts';
import type { PasswordSeal } from './sealed-password.ts';

/** Keys in the settings table; only `zentaoUrl` is part of the settings every screen reads. */
const KEYS = {
  url: 'zentaoUrl',
  account: 'zentaoAccount',
  password: 'zentaoPassword',
  lastImport: 'zentaoLastImport',
} as const;

const invalid = (field: string, message: string) =>
  new ApiError(400, 'validation-failed', message, { [field]: message });

/** ZenTao's address and account (administrators), the screen's status, and imports. */
export class ZentaoService {
  constructor(
    private readonly db: Db,
    private readonly deps: {
      audit: AuditService;
      principals: Principals;
      importer: ZentaoImporter;
      seal: PasswordSeal;
      fetch?: typeof fetch;
    },
  ) {}

  async config(): Promise<ZentaoConfig> {
    const stored = await this.stored();
    return { url: stored.url, account: stored.account, passwordSet: stored.sealed !== '' };
  }

  /** All three saved at once, or none: an address needs an account, and a password once. */
  async saveConfig(input: ZentaoConfigInput, actor: Actor): Promise<ZentaoConfig> {
    const before = await this.stored();
    const clearing = input.url === '';
    if (!clearing && input.account === '') throw invalid('account', 'Please enter the ZenTao API account.');
    if (!clearing && !input.password && (before.sealed === '' || input.account !== before.account)) {
      throw invalid('password', "Please enter the account's password.");
    }
    const sealed = clearing ? '' : input.password ? this.deps.seal.seal(input.password) : before.sealed;
    const account = clearing ? '' : input.account;
    await this.deps.audit.audited(actor, async (tx) => {
      await saveSettingValues(tx, [
        [KEYS.url, input.url],
        [KEYS.account, account],
        [KEYS.password, sealed],
      ]);
      const changes: Record<string, { from: unknown; to: unknown }> = {};
      if (before.url !== input.url) changes.url = { from: before.url, to: input.url };
      if (before.account !== account) changes.account = { from: before.account, to: account };
      // The password is never written to the log, only that it changed.
      if (before.sealed !== sealed) changes.password = { from: '***', to: sealed ? '***' : '' };
      return { result: null, entry: { entity: 'zentao', entityId: 'config', action: 'update', changes } };
    });
    this.deps.principals.invalidate();
    return this.config();
  }

  /** What `/zentao` shows: the address, whether ZenTao lets this page frame it, the last import. */
  async status(ourOrigins: string[]): Promise<ZentaoStatus> {
    const stored = await this.stored();
    return {
      url: stored.url || null,
      frame: stored.url ? await checkFrame(stored.url, ourOrigins, this.deps.fetch) : null,
      importReady: stored.url !== '' && stored.account !== '' && stored.sealed !== '',
      lastImport: stored.lastImport,
    };
  }

  /** An administrator's import now; ZenTao's failure is a 502 with its reason, and nothing is stored. */
  async importNow(actor: Actor): Promise<ZentaoImportSummary> {
    const name = (await new Accounts(this.db).usernameOf(actor.id)) ?? '';
    return this.runImport({ id: actor.id, name });
  }

  /** The schedule's import: nothing to do until ZenTao is configured. */
  async importOnSchedule(): Promise<ZentaoImportSummary | null> {
    const stored = await this.stored();
    if (!stored.url || !stored.account || !stored.sealed) return null;
    return this.runImport({ id: null, name: 'schedule' });
  }

  private async runImport(actor: ImportActor): Promise<ZentaoImportSummary> {
    const client = new ZentaoClient(await this.account(), this.deps.fetch);
    const edition = (await this.deps.principals.settings()).licenseVersion;
    let summary: ZentaoImportSummary;
    try {
      summary = await this.deps.importer.run(client, actor, { requirements: edition !== 'lite' });
    } catch (error) {
      if (error instanceof ZentaoError)
        throw new ApiError(502, 'bad-request', `${error.message} Nothing was imported.`);
      throw error;
    }
    await saveSettingValues(this.db, [[KEYS.lastImport, summary]]);
    return summary;
  }

  private async account(): Promise<ZentaoAccount> {
    const stored = await this.stored();
    if (!stored.url || !stored.account || !stored.sealed) {
      throw new ApiError(
        400,
        'bad-request',
        "ZenTao's address, account and password are not all set (system settings).",
      );
    }
    const password = this.deps.seal.open(stored.sealed);
    if (password === null) {
      throw new ApiError(
        400,
        'bad-request',
        "The stored ZenTao password cannot be read (the server's secret changed); enter it again in system settings.",
      );
    }
    return { url: stored.url, account: stored.account, password };
  }

  private async stored() {
    const all = await readSettingValues(this.db);
    const text = (key: string) => (typeof all[key] === 'string' ? (all[key] as string) : '');
    const last = ZentaoImportSummarySchema.safeParse(all[KEYS.lastImport]);
    return {
      url: text(KEYS.url),
      account: text(KEYS.account),
      sealed: text(KEYS.password),
      lastImport: last.success ? last.data : null,
    };
  }
}
