import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import { riskBurnDown } from '../../src/modules/risks/burn-down.ts';
import { freshDatabase } from '../support/build-test-app.ts';

/**
 * risk_open_days (kept by triggers, migration 0022) answers the burn-down over apps alone (issue 35)
 * without reading the history: after every kind of transition (opened, asked, judged each way, a
 * judgment changed, resolved, reopened) on several days, and after items are deleted, its burn-down
 * must equal the one read from the transitions themselves.
 */
describe('risk openings and closings kept per app and day', () => {
  let database: Database;
  const apps: string[] = [];
  const DAY = 86_400_000;
  const day = (ago: number) => new Date(Date.now() - ago * DAY).toISOString();

  beforeAll(async () => {
    database = await freshDatabase();
    const { pool } = database;
    const team = (await pool.query(`insert into teams (name) values ('burners') returning id`)).rows[0].id;
    for (const name of ['one', 'two']) {
      const { rows } = await pool.query(
        `insert into apps (team_id, name, language, repo_url, default_branch, coverage_source, ingestion_token_hash)
         values ($1, $2, 'java', 'https://example.test/x.git', 'main', 'upload', $2) returning id`,
        [team, name],
      );
      apps.push(rows[0].id);
    }
  }, 120_000);
  afterAll(() => database?.close());

  /** One item of `app` with its transitions [days ago, from, to, judgment], written one statement each. */
  async function item(app: string, n: number, transitions: [number, string | null, string, string | null][]) {
    const { pool } = database;
    const last = transitions.at(-1);
    const { rows } = await pool.query(
      `insert into risk_items (app_id, test_type, version, class_name, method_name, file_path, line_covered,
         line_total, state, judgment) values ($1, 1, 'v1', 'C', $2, 'C.java', 0, 10, $3, $4) returning id`,
      [app, `m${n}`, last?.[2], last?.[3]],
    );
    for (const [ago, from, to, judgment] of transitions) {
      await pool.query(
        `insert into risk_item_history (risk_item_id, at, from_state, to_state, judgment) values ($1, $2, $3, $4, $5)`,
        [rows[0].id, day(ago), from, to, judgment],
      );
    }
    return String(rows[0].id);
  }

  const both = async (appIds: string[], days: number) => {
    const kept = await riskBurnDown(database.db, { appIds }, days);
    const read = await riskBurnDown(database.db, { appIds }, days, 'history');
    return { kept, read };
  };

  it('equals the burn-down read from the history, per app and over both, after every kind of transition', async () => {
    const [one = '', two = ''] = apps;
    await item(one, 1, [[20, null, 'observing', null]]);
    await item(one, 2, [
      [18, null, 'observing', null],
      [15, 'observing', 'pending', null],
      [12, 'pending', 'judged', 'needs-test'],
      [9, 'judged', 'judged', 'accepted'],
    ]);
    await item(one, 3, [
      [14, null, 'observing', null],
      [10, 'observing', 'judged', 'false-positive'],
      [6, 'judged', 'judged', 'needs-test'],
      [3, 'judged', 'resolved', null],
    ]);
    await item(two, 4, [
      [25, null, 'observing', null],
      [5, 'observing', 'resolved', null],
      [2, 'resolved', 'observing', null],
    ]);
    // Several transitions in one statement, as a report resolving many items writes them.
    const bulk = await item(two, 5, [[8, null, 'observing', null]]);
    await database.pool.query(
      `insert into risk_item_history (risk_item_id, at, from_state, to_state, judgment)
       values ($1, $2, 'observing', 'judged', 'accepted'), ($1, $3, 'judged', 'judged', 'needs-test')`,
      [bulk, day(4), day(1)],
    );
    for (const scope of [[one], [two], [one, two]]) {
      for (const days of [30, 10, 120]) {
        const { kept, read } = await both(scope, days);
        expect(kept, `${scope.length} apps, ${days} days`).toEqual(read);
      }
    }
    const { kept } = await both([one, two], 30);
    expect(kept.points.some((p) => p.opened > 0)).toBe(true);
    expect(kept.points.some((p) => p.closed > 0)).toBe(true);
  });

  it('takes a deleted item’s transitions back', async () => {
    const [one = '', two = ''] = apps;
    const gone = await item(one, 6, [
      [7, null, 'observing', null],
      [3, 'observing', 'resolved', null],
    ]);
    await database.pool.query('delete from risk_items where id = $1', [gone]);
    const { kept, read } = await both([one, two], 30);
    expect(kept).toEqual(read);
    const { rows } = await database.pool.query(
      'select count(*)::int as n from risk_open_days where opened < 0 or closed < 0',
    );
    expect(rows[0].n).toBe(0);
  });

  it('goes with its app: an app with items, history and counted days can be deleted', async () => {
    const [one = '', two = ''] = apps;
    await item(two, 7, [
      [2, null, 'observing', null],
      [1, 'observing', 'judged', 'accepted'],
    ]);
    const before = await database.pool.query('select count(*)::int as n from risk_open_days where app_id = $1', [two]);
    expect(before.rows[0].n).toBeGreaterThan(0);
    await database.pool.query('delete from apps where id = $1', [two]);
    const { rows } = await database.pool.query(
      'select (select count(*)::int from risk_open_days where app_id = $1) as days, (select count(*)::int from risk_items where app_id = $1) as items',
      [two],
    );
    expect(rows[0]).toEqual({ days: 0, items: 0 });
    const { kept, read } = await both([one], 30);
    expect(kept).toEqual(read);
  });
});
