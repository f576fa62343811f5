import type { RiskItem } from '@sextant/api';
import { describe, expect, it } from 'vitest';
import { useAdminApp } from '../support/build-test-app.ts';

/**
 * Deep pages of the risk list (issue 34): from offset 200 on, a page finds its ids in the sort's index
 * before reading its rows (page-reads.ts). It must list what the shallow reads list at the same
 * places, for every state filter (with and without the overdue-first part) and sort direction.
 */
describe('deep pages of the risk list', () => {
  const t = useAdminApp();
  const list = async (query: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/api/risks?${query}`, headers: t.admin.headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { items: RiskItem[]; total: number };
  };

  it('lists the items the shallow pages list at the same places', async () => {
    const pool = t.database.pool;
    await pool.query(`insert into teams (name) values ('paged')`);
    await pool.query(`insert into apps (team_id, name, language, repo_url, default_branch, coverage_source,
        ingestion_token_hash)
      select id, 'paged-' || g, 'java', 'https://example.test/' || g || '.git', 'main', 'upload', 'hash-' || g
      from teams, generate_series(1, 2) g where name = 'paged'`);
    // 1,500 items over two apps, every state, ties in every sort (equal changed lines, creation days).
    await pool.query(
      `insert into risk_items (app_id, test_type, version, class_name, method_name, signature, file_path,
         line_covered, line_total, changed_lines, state, judgment, due_date, created_at)
       select a.id, 1, 'v' || (g % 2), 'pkg/C', 'm' || g, '()V', 'src/pkg/C.java', g % 7, 10, 1 + g % 13,
              (array['observing', 'pending', 'judged', 'resolved', 'observing'])[1 + g % 5],
              case when g % 5 = 2 then 'needs-test' end,
              case when g % 5 = 2 then current_date + (g % 9 - 6) end,
              now() - (g % 30) * interval '1 day'
       from generate_series(1, 1500) g join (select id, row_number() over (order by name) - 1 as n from apps
         where name like 'paged-%') a on a.n = g % 2`,
    );
    const cases = [
      'state=observing,pending&sortBy=severity&sortDesc=true',
      'state=observing,pending&sortBy=createdAt&sortDesc=true',
      'state=observing,pending&sortBy=createdAt&sortDesc=false',
      'state=pending,judged&sortBy=severity&sortDesc=true',
      'sortBy=changedLines&sortDesc=false',
      'state=observing,pending&version=v1&sortBy=severity&sortDesc=true',
    ];
    for (const filter of cases) {
      // Offsets 0 and 199: read without the deep path.
      const shallow = [
        ...(await list(`${filter}&perPage=199&page=1`)).items,
        ...(await list(`${filter}&perPage=199&page=2`)).items,
      ];
      expect(shallow.length, filter).toBeGreaterThan(260);
      for (const page of [11, 12, 13]) {
        const deep = await list(`${filter}&perPage=20&page=${page}`);
        const at = (page - 1) * 20;
        expect(
          deep.items.map((i) => i.id),
          `${filter} page ${page}`,
        ).toEqual(shallow.slice(at, at + 20).map((i) => i.id));
        expect(deep.items[0]?.appName, filter).toMatch(/^paged-[12]$/);
      }
    }
  });
});
