import { randomBytes } from 'node:crypto';
import { PATHS, type ZentaoConfig, type ZentaoImportSummary } from '@sextant/api';
import type { DemoApi } from './client.ts';
import { DEMO_PROJECT } from './manifest.ts';
import { type FakeZentaoData, startFakeZentao } from './zentao-shaped.ts';

const ACCOUNT = 'demo-importer';

/**
 * The demo's plan as ZenTao holds it (issue 35): one product per app of the demo project, named as the
 * project (the import's rule) with the app's name as its code; stories become requirements keyed by
 * their ZenTao id, test cases become the app's cases `zentao-<id>`.
 */
export const DEMO_ZENTAO: FakeZentaoData = {
  products: [
    { id: 11, name: DEMO_PROJECT, code: 'demo-inventory' },
    { id: 12, name: DEMO_PROJECT, code: 'demo-storefront' },
  ],
  stories: {
    11: [
      { id: 1101, title: 'Stock transfers between warehouses', status: 'active', stage: 'developing', product: 11 },
      { id: 1102, title: 'Monthly stock valuation report', status: 'active', stage: 'wait', product: 11 },
    ],
    12: [
      { id: 1201, title: 'Gift cards at checkout', status: 'active', stage: 'testing', product: 12 },
      { id: 1202, title: 'Guest checkout without an account', status: 'closed', stage: 'released', product: 12 },
    ],
  },
  testcases: {
    11: [
      {
        id: 5101,
        title: 'A transfer moves stock and keeps the ledger even',
        story: 1101,
        type: 'feature',
        auto: 'no',
        product: 11,
      },
      {
        id: 5102,
        title: 'Valuation of an empty warehouse is zero',
        story: 1102,
        type: 'feature',
        auto: 'auto',
        product: 11,
      },
    ],
    12: [
      { id: 5201, title: 'A gift card pays part of an order', story: 1201, type: 'feature', auto: 'no', product: 12 },
      {
        id: 5202,
        title: 'A guest receives the receipt by e-mail',
        story: 1202,
        type: 'interface',
        auto: 'auto',
        product: 12,
      },
    ],
  },
};

/** What the import makes of them (the importer's keys), for `sextant demo --remove`. */
export const DEMO_ZENTAO_REQUIREMENT_KEYS = Object.values(DEMO_ZENTAO.stories).flatMap((s) =>
  s.map((x) => String(x.id)),
);
export const DEMO_ZENTAO_CASE_KEYS = Object.values(DEMO_ZENTAO.testcases).flatMap((c) =>
  c.map((x) => `zentao-${x.id}`),
);

/**
 * Imports the demo's ZenTao plan through the API: a ZenTao-shaped server on a free local port, the
 * ZenTao settings pointed at it, the import run, then the settings cleared (the address dies with the
 * demo; the hourly schedule must not call it) and the server stopped. The last import's summary stays
 * on /zentao. An installation whose administrator already set a ZenTao address is left alone.
 */
export async function importDemoZentao(api: DemoApi, log: (line: string) => void): Promise<ZentaoImportSummary | null> {
  const config = await api.call<ZentaoConfig>('GET', PATHS.zentaoConfig);
  if (config.url) {
    log(`ZenTao is already set up (${config.url}): the demo leaves it and imports nothing from it`);
    return null;
  }
  const password = randomBytes(12).toString('hex');
  const zentao = await startFakeZentao({ account: ACCOUNT, password, data: DEMO_ZENTAO });
  try {
    await api.call('PATCH', PATHS.zentaoConfig, { url: zentao.url, account: ACCOUNT, password });
    const summary = await api.call<ZentaoImportSummary>('POST', PATHS.zentaoImport);
    const counts = (c: ZentaoImportSummary['cases']) =>
      `${c.created} created, ${c.updated} updated, ${c.unchanged} unchanged, ${c.refused} refused`;
    log(`ZenTao import: requirements ${counts(summary.requirements)}; cases ${counts(summary.cases)}`);
    return summary;
  } finally {
    await api.call('PATCH', PATHS.zentaoConfig, { url: '', account: '' }).catch(() => undefined);
    await zentao.close();
  }
}
