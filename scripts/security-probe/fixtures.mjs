// The probe's throw-away team, app, users and roles, all named `<prefix>-…`, and their removal.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { call, must, signIn } from './client.mjs';

export class Fixtures {
  constructor(base, admin, prefix) {
    this.base = base;
    this.admin = admin;
    this.prefix = prefix;
    /** Undo steps, run last-in first-out by `cleanUp`. */
    this.undo = [];
    this.team = null;
  }

  async teamId() {
    if (!this.team) {
      this.team = await must(this.base, 'POST', '/api/teams', {
        token: this.admin.accessToken,
        body: { name: `${this.prefix}-team`, description: 'security probe (throw-away)' },
      });
      const id = this.team.id;
      this.undo.push(() => call(this.base, 'DELETE', `/api/teams/${id}`, { token: this.admin.accessToken }));
    }
    return this.team.id;
  }

  /** A git repository with one commit on `main`, in a folder of this machine (the server's, on loopback). */
  localRepository() {
    const dir = mkdtempSync(join(tmpdir(), `${this.prefix}-repo-`));
    this.undo.push(async () => rmSync(dir, { recursive: true, force: true }));
    const env = {
      ...process.env,
      GIT_AUTHOR_NAME: 'probe',
      GIT_AUTHOR_EMAIL: 'probe@example.invalid',
      GIT_COMMITTER_NAME: 'probe',
      GIT_COMMITTER_EMAIL: 'probe@example.invalid',
    };
    const git = (...args) => execFileSync('git', args, { cwd: dir, env, stdio: 'ignore', timeout: 15_000 });
    git('init', '-q', '-b', 'main');
    writeFileSync(join(dir, 'Probe.java'), 'class Probe { int answer() { return 42; } }\n');
    git('add', '.');
    git('commit', '-q', '-m', 'probe');
    return dir;
  }

  /** Creates an app (undone by deleting it); the raw answer, so callers see a refusal. */
  async createApp(fields) {
    const res = await call(this.base, 'POST', '/api/apps', {
      token: this.admin.accessToken,
      body: { teamId: await this.teamId(), language: 'java', environments: ['test'], ...fields },
    });
    const id = res.json?.data?.id;
    if (id) this.undo.push(() => call(this.base, 'DELETE', `/api/apps/${id}`, { token: this.admin.accessToken }));
    return res;
  }

  async role(name, ability) {
    const resourceNums = Object.fromEntries(ability.map((a) => [a.resource, 1]));
    const role = await must(this.base, 'POST', '/api/roles', {
      token: this.admin.accessToken,
      body: { name: `${this.prefix}-${name}`, ability, resourceNums },
    });
    this.undo.push(() => call(this.base, 'DELETE', `/api/roles/${role.id}`, { token: this.admin.accessToken }));
    return role.name;
  }

  /**
   * A signed-in user of `role`. Accounts cannot be deleted: cleaning up disables it and gives it the
   * `client` role, so that the probe's roles can go.
   */
  async user(name, role) {
    const username = `${this.prefix}-${name}`;
    const password = `${this.prefix}-Pw-${Math.random().toString(36).slice(2)}`;
    const created = await must(this.base, 'POST', '/api/users', {
      token: this.admin.accessToken,
      body: { username, email: `${username}@example.invalid`, role, password },
    });
    this.undo.push(() =>
      call(this.base, 'PATCH', `/api/users/${created.id}`, {
        token: this.admin.accessToken,
        body: { enabled: false, role: 'client' },
      }),
    );
    return { id: created.id, username, password, ...(await signIn(this.base, username, password)) };
  }

  /** Access requests the probe caused, rejected when it is done. */
  rejectApplicationsLater() {
    this.undo.push(async () => {
      const res = await call(this.base, 'GET', `/api/applications?q=${this.prefix}&perPage=200&status=pending`, {
        token: this.admin.accessToken,
      });
      for (const item of res.json?.data?.items ?? []) {
        await call(this.base, 'POST', `/api/applications/${item.id}/reject`, {
          token: this.admin.accessToken,
          body: { reason: 'security probe (throw-away)' },
        });
      }
    });
  }

  /** Runs every undo step; returns the ones that failed, for the operator. */
  async cleanUp() {
    const failures = [];
    while (this.undo.length > 0) {
      const step = this.undo.pop();
      try {
        const res = await step();
        if (res && typeof res.status === 'number' && res.status >= 400 && res.status !== 404) {
          failures.push(`${res.status} ${res.body.slice(0, 120)}`);
        }
      } catch (error) {
        failures.push(String(error?.message ?? error));
      }
    }
    return failures;
  }
}
