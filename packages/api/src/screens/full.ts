import type { Action } from '../abilities.ts';
import type { Screen } from './screen.ts';

const s = (screen: Screen): Screen => screen;
const read: Action = 'read';

/** Full-layout screens (no navigation frame) and the client's landing screen. */
export const FULL_SCREENS = [
  // full layout
  s({ name: 'error-404', path: '/error-404', title: 'Page not found', layout: 'full', resource: null, action: read }),
  s({
    name: 'auth-login',
    path: '/login',
    title: 'Sign in',
    layout: 'full',
    resource: null,
    action: read,
    redirectIfLoggedIn: true,
  }),
  s({
    name: 'auth-reset-password',
    path: '/pages/dashboard/reset-password',
    title: 'Reset password',
    layout: 'full',
    resource: null,
    action: read,
  }),
  s({
    name: 'misc-not-authorized',
    path: '/pages/miscellaneous/not-authorized',
    title: 'Not authorized',
    layout: 'full',
    resource: null,
    action: read,
  }),
  s({
    name: 'auth-apply',
    path: '/apply',
    title: 'Apply for access',
    layout: 'full',
    resource: null,
    action: read,
    redirectIfLoggedIn: true,
  }),
  s({
    name: 'dashboard-code-coverage-view',
    path: '/codecoverage/:id',
    title: 'Coverage report view',
    layout: 'full',
    resource: 'Report',
    action: read,
  }),
  s({
    name: 'external-zentao',
    path: '/zentao',
    title: 'ZenTao',
    layout: 'full',
    resource: 'Requirement',
    action: read,
  }),
  // where a client lands after sign-in (navigation rule 3)
  s({
    name: 'access-control',
    path: '/access-control',
    title: 'Your access',
    layout: 'main',
    resource: 'ACL',
    action: read,
  }),
] as const satisfies readonly Screen[];
