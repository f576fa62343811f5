import type { CoverageType } from '@sextant/api';

/**
 * The demo workspace (issue 7): everything `sextant demo` creates, by name, so a second run finds what
 * the first made and changes nothing. The repositories and coverage files come from
 * packages/cli/demo/, made by the real tools (scripts/fixtures/demo/make.sh).
 */
export const DEMO_LABEL = 'demo';
export const DEMO_TEAM = {
  name: 'Demo team',
  description: 'Demo workspace: remove it with `npm run demo -- --remove`.',
};
export const DEMO_PROJECT = 'Demo spring release';

export type DemoApp = {
  /** Directory under packages/cli/demo/ holding repo.bundle and the coverage files. */
  dir: 'inventory' | 'storefront';
  name: string;
  language: 'java' | 'typescript';
  environments: string[];
};
export const DEMO_APPS: DemoApp[] = [
  { dir: 'inventory', name: 'demo-inventory', language: 'java', environments: ['dev', 'test'] },
  { dir: 'storefront', name: 'demo-storefront', language: 'typescript', environments: ['dev', 'test'] },
];

/** Each release compares two tags of the app's repository. */
export const DEMO_VERSIONS = [
  { name: '1.0', baseRef: 'v1', newRef: 'v2' },
  { name: '1.1', baseRef: 'v2', newRef: 'v3' },
];

export const DEMO_REQUIREMENTS: { key: string; title: string; app: DemoApp['dir'] }[] = [
  { key: 'REQ-101', title: 'Stock ledger per SKU', app: 'inventory' },
  { key: 'REQ-102', title: 'Reservations hold stock for orders', app: 'inventory' },
  { key: 'REQ-103', title: 'Low-stock alerts', app: 'inventory' },
  { key: 'REQ-201', title: 'Cart totals', app: 'storefront' },
  { key: 'REQ-202', title: 'Coupons', app: 'storefront' },
  { key: 'REQ-203', title: 'Checkout and receipts', app: 'storefront' },
];

export const DEMO_CASES: { key: string; title: string; app: DemoApp['dir']; requirement: string }[] = [
  {
    key: 'TC-101',
    title: 'Over-reservation is refused; a cancelled order frees its stock',
    app: 'inventory',
    requirement: 'REQ-102',
  },
  {
    key: 'TC-102',
    title: 'A sale below the threshold raises a low-stock alert',
    app: 'inventory',
    requirement: 'REQ-103',
  },
  {
    key: 'TC-201',
    title: 'A coupon below its minimum leaves the price alone',
    app: 'storefront',
    requirement: 'REQ-202',
  },
  { key: 'TC-202', title: 'Checkout with a coupon prints a receipt', app: 'storefront', requirement: 'REQ-203' },
];

/** Unit runs go to env dev as testType 1; functional case runs to env test as testType 2. */
export type DemoUpload = { file: string; tag: 'v2' | 'v3'; run: string };
export function uploadMeta(upload: DemoUpload): { envType: string; testType: 1 | 2; caseId?: string } {
  return upload.run === 'unit' ? { envType: 'dev', testType: 1 } : { envType: 'test', testType: 2, caseId: upload.run };
}

export type DemoReport = {
  name: string;
  baseVersion: string;
  newVersion: string;
  envType: string;
  testType: 1 | 2;
  coverageType: CoverageType;
};
export const DEMO_REPORTS: DemoReport[] = [
  {
    name: '1.0 unit, incremental',
    baseVersion: 'v1',
    newVersion: 'v2',
    envType: 'dev',
    testType: 1,
    coverageType: 'incremental',
  },
  {
    name: '1.1 unit, incremental',
    baseVersion: 'v2',
    newVersion: 'v3',
    envType: 'dev',
    testType: 1,
    coverageType: 'incremental',
  },
  { name: '1.1 unit, full', baseVersion: 'v2', newVersion: 'v3', envType: 'dev', testType: 1, coverageType: 'full' },
  {
    name: '1.0 QA, incremental',
    baseVersion: 'v1',
    newVersion: 'v2',
    envType: 'test',
    testType: 2,
    coverageType: 'incremental',
  },
  {
    name: '1.1 QA, incremental',
    baseVersion: 'v2',
    newVersion: 'v3',
    envType: 'test',
    testType: 2,
    coverageType: 'incremental',
  },
  { name: '1.1 QA, full', baseVersion: 'v2', newVersion: 'v3', envType: 'test', testType: 2, coverageType: 'full' },
];

/** The coverage files of one app directory: `v<N>-<run>.<ext>`, run = unit or a case key. */
export function parseUploadName(file: string): DemoUpload | null {
  const match = /^(v2|v3)-(unit|TC-\d+)\.(xml|info)$/.exec(file);
  return match ? { file, tag: match[1] as 'v2' | 'v3', run: match[2] as string } : null;
}
