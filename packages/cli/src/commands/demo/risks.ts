import { PATHS, pathTo, type RiskItem } from '@sextant/api';
import type { DemoApi } from './client.ts';

const DAY_MS = 86_400_000;

async function demoRisks(api: DemoApi, appIds: string[]): Promise<RiskItem[]> {
  const items: RiskItem[] = [];
  for (const appId of appIds) {
    const page = await api.call<{ items: RiskItem[] }>('GET', `${PATHS.risks}?appId=${appId}&perPage=200`);
    items.push(...page.items);
  }
  return items;
}

/**
 * After the unit-test reports, through the public API as a team lead would (issue 34): the
 * storefront's first three risks judged (accepted, false positive, and "needs test" assigned to the
 * signing-in user and already overdue). The QA reports that run next cover the storefront's
 * methods: the needs-test item is resolved by them and the accepted and false-positive ones keep
 * their judgment. Judging needs the showJudgment setting on, so the demo switches it on. Runs once:
 * a demo whose items were judged is left as it is.
 */
export async function judgeDemoRisks(api: DemoApi, appIds: string[], log: (line: string) => void): Promise<number> {
  const items = await demoRisks(api, appIds);
  if (items.some((i) => i.state === 'judged')) return 0;
  const observing = items.filter((i) => i.state === 'observing');
  const judged = observing.filter((i) => i.appName === 'demo-storefront').slice(0, 3);
  if (judged.length < 3) return 0;
  const [accepted, falsePositive, needsTest] = judged as [RiskItem, RiskItem, RiskItem];
  await api.call('PATCH', PATHS.settings, { showJudgment: true });
  log('showJudgment switched on so the demo can judge risks');
  const me = await api.call<{ userData: { userid: string } }>('GET', PATHS.me);
  const judge = (item: RiskItem, body: unknown) => api.call('POST', pathTo(PATHS.riskJudgment, { id: item.id }), body);
  await judge(accepted, { judgment: 'accepted', reason: 'Demo: legacy path, replaced next sprint.' });
  await judge(falsePositive, { judgment: 'false-positive', reason: 'Demo: generated accessor.' });
  await judge(needsTest, {
    judgment: 'needs-test',
    assigneeId: me.userData.userid,
    dueDate: new Date(Date.now() - 2 * DAY_MS).toISOString().slice(0, 10),
    reason: 'Demo: add a unit test for the new branch.',
  });
  log('risk items judged: accepted, false positive, needs test');
  return 3;
}

/** After the QA reports: a decision asked for on one item still observing, the others left observing. */
export async function askDemoDecision(api: DemoApi, appIds: string[], log: (line: string) => void): Promise<number> {
  const items = await demoRisks(api, appIds);
  const observing = items.filter((i) => i.state === 'observing');
  if (items.some((i) => i.state === 'pending') || observing.length < 2) return 0;
  const ids = [(observing[0] as RiskItem).id];
  await api.call('POST', PATHS.riskAskDecision, { ids, reason: 'Demo: please decide before the release.' });
  log('a decision asked for on one risk item');
  return ids.length;
}
