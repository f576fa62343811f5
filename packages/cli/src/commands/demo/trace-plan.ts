import type { DemoApp } from './manifest.ts';

/** One interface of a demo app: the method behind it, and how it behaves in each demo version. */
export type DemoInterface = {
  method: string;
  route: string;
  code: { namespace: string; function: string; file: string; line: number };
  /** Typical duration in ms, per version. */
  ms: { '1.0': number; '1.1': number };
  /** Share of failing calls, per version. */
  errors: { '1.0': number; '1.1': number };
  exception?: { type: string; message: string };
  testCase?: string;
};

const java = (cls: string, fn: string, line: number) => ({
  namespace: `demo.inventory.${cls}`,
  function: fn,
  file: `src/main/java/demo/inventory/${cls}.java`,
  line,
});
const ts = (file: string, fn: string, line: number) => ({
  namespace: file,
  function: fn,
  file: `src/${file}.ts`,
  line,
});
const steady = { '1.0': 0.01, '1.1': 0.01 };

/**
 * What `sextant demo` sends over OTLP (issue 36): per app, four interfaces across versions 1.0 and
 * 1.1; in 1.1 one interface is slower and one fails more, and calls made by test cases carry their key.
 */
export const DEMO_TRACE_PLAN: Record<DemoApp['dir'], { service: string; interfaces: DemoInterface[] }> = {
  inventory: {
    service: 'inventory-api',
    interfaces: [
      {
        method: 'GET',
        route: '/stock/{sku}',
        code: java('Stock', 'level', 21),
        ms: { '1.0': 18, '1.1': 18 },
        errors: steady,
      },
      {
        method: 'POST',
        route: '/reservations',
        code: java('Reservations', 'reserve', 14),
        ms: { '1.0': 80, '1.1': 1400 },
        errors: steady,
        testCase: 'TC-101',
      },
      {
        method: 'DELETE',
        route: '/reservations/{id}',
        code: java('Reservations', 'release', 30),
        ms: { '1.0': 25, '1.1': 25 },
        errors: steady,
        testCase: 'TC-101',
      },
      {
        method: 'GET',
        route: '/alerts',
        code: java('Alerts', 'lowStock', 9),
        ms: { '1.0': 40, '1.1': 40 },
        errors: { '1.0': 0.02, '1.1': 0.3 },
        exception: { type: 'java.lang.IllegalStateException', message: 'threshold below zero' },
        testCase: 'TC-102',
      },
    ],
  },
  storefront: {
    service: 'storefront-web',
    interfaces: [
      { method: 'GET', route: '/cart', code: ts('cart', 'total', 29), ms: { '1.0': 12, '1.1': 12 }, errors: steady },
      {
        method: 'POST',
        route: '/cart/items',
        code: ts('cart', 'add', 10),
        ms: { '1.0': 30, '1.1': 30 },
        errors: steady,
      },
      {
        method: 'POST',
        route: '/cart/coupon',
        code: ts('coupons', 'applyCoupon', 5),
        ms: { '1.0': 35, '1.1': 35 },
        errors: { '1.0': 0.02, '1.1': 0.35 },
        exception: { type: 'RangeError', message: 'coupon minimum not met' },
        testCase: 'TC-201',
      },
      {
        method: 'POST',
        route: '/checkout',
        code: ts('checkout', 'placeOrder', 8),
        ms: { '1.0': 220, '1.1': 3600 },
        errors: steady,
        testCase: 'TC-202',
      },
    ],
  },
};
