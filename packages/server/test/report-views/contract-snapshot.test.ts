import { beforeAll, describe, expect, it } from 'vitest';
import { useReportViews } from './support.ts';

/**
 * Issue 33: moving the contract into packages/api (paths, statuses, schemas) must not change a byte of
 * what the specification's report calls and an admin list answer. The snapshot was recorded on the code
 * before that change; generated ids and timestamps are replaced by stable names so the fixture replays.
 */
describe('spec report calls and an admin list answer as before the contract moved', () => {
  const t = useReportViews();
  let reportId = '';
  let classId = '';

  beforeAll(async () => {
    const { appId } = await t.createApp('Shop', 'checkout');
    const billing = await t.createApp('Shop', 'billing');
    reportId = await t.insertReport({
      appId,
      name: 'release 2',
      lineCovered: 8,
      lineTotal: 10,
      branchCovered: 1,
      branchTotal: 4,
      codeAuthor: 'ada',
    });
    await t.insertReport({ appId: billing.appId, name: 'failed build', status: 'COMPILE_FAIL', lineTotal: 0 });
    await t.insertReport({ appId, name: 'waiting', status: 'GENERATING_REPORT' });
    await t.insertRisk(reportId, appId, 'observing');
    classId = await t.insertDetail({
      reportId,
      name: 'shop/Cart',
      filePath: 'src/shop/Cart.java',
      lineCovered: 9,
      lineTotal: 10,
      changed: true,
      methodCount: 1,
    });
    await t.insertDetail({
      reportId,
      classId: Number(classId),
      name: 'add(I)V',
      startLine: 3,
      endLine: 9,
      lineCovered: 4,
      lineTotal: 4,
      changed: true,
      changeStatus: 'modified',
    });
  });

  it('answers the recorded JSON', async () => {
    const calls = {
      searchReports: await t.post('/api/searchReports', { sortBy: 'name', sortOrder: 'asc' }),
      getReport: await t.get(`/api/getReport?reportId=${reportId}`),
      getReportDetails: await t.get(`/api/getReportDetails?reportId=${reportId}`),
      getReportMethods: await t.get(`/api/getReportDetails?reportId=${reportId}&classId=${classId}`),
      apps: await t.get('/api/apps?page=1&pageSize=10'),
    };
    const answers = Object.fromEntries(
      Object.entries(calls).map(([name, res]) => [name, { status: res.statusCode, body: res.body }]),
    );
    await expect(`${JSON.stringify(stable(answers), null, 2)}\n`).toMatchFileSnapshot(
      './__snapshots__/contract-snapshot.json',
    );
  });
});

/** Generated UUIDs and timestamps, named by order of appearance, so two runs of the fixture compare equal. */
function stable(answers: Record<string, { status: number; body: string }>) {
  const names = new Map<string, string>();
  const rename = (text: string) =>
    text
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, (id) => {
        if (!names.has(id)) names.set(id, `<uuid ${names.size + 1}>`);
        return names.get(id)!;
      })
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<time>');
  return Object.fromEntries(
    Object.entries(answers).map(([name, { status, body }]) => [name, { status, body: rename(body) }]),
  );
}
