import type { Action } from '../abilities.ts';
import type { Screen } from './screen.ts';

const s = (screen: Screen): Screen => screen;
const read: Action = 'read';

/** Tracing screens of specification point 2 (advanced edition). */
export const TRACING_SCREENS = [
  // tracing
  s({
    name: 'otel-trace',
    path: '/otel/otel',
    title: 'Traces',
    layout: 'main',
    resource: 'Trace',
    action: read,
    menu: { group: 'tracing', order: 0 },
  }),
  s({
    name: 'otel-regression',
    path: '/otel/regression',
    title: 'Regression analysis',
    layout: 'main',
    resource: 'Regression',
    action: read,
    menu: { group: 'tracing', order: 1 },
  }),
  s({
    name: 'otel-regression-detail',
    path: '/otel/regression/:id',
    title: 'Regression run',
    layout: 'main',
    resource: 'Regression',
    action: read,
    navActiveLink: 'otel-regression',
  }),
  s({
    name: 'otel-interface-analytic',
    path: '/otel/interfaceAnalytic',
    title: 'Interface analytics',
    layout: 'main',
    resource: 'InterfaceAnalytic',
    action: read,
    menu: { group: 'tracing', order: 2 },
  }),
  s({
    name: 'otel-interface-analytic-detail',
    path: '/otel/interfaceAnalytic/:id',
    title: 'Interface',
    layout: 'main',
    resource: 'InterfaceAnalytic',
    action: read,
    navActiveLink: 'otel-interface-analytic',
  }),
] as const satisfies readonly Screen[];
