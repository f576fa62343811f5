import { DASHBOARD_SCREENS } from './screens/dashboard.ts';
import { FULL_SCREENS } from './screens/full.ts';
import type { Screen } from './screens/screen.ts';
import { SYSTEM_SCREENS } from './screens/system.ts';
import { TRACING_SCREENS } from './screens/tracing.ts';

export type { Screen } from './screens/screen.ts';

/** Every screen of specification point 2: the only place their paths are written. */
export const SCREENS = [...FULL_SCREENS, ...DASHBOARD_SCREENS, ...SYSTEM_SCREENS, ...TRACING_SCREENS] as const;

export type ScreenName = (typeof SCREENS)[number]['name'];

export const HOME_PATH = '/dashboard/observingRiskyItems';
export const CLIENT_HOME_PATH = '/access-control';
export const LOGIN_PATH = '/login';
export const NOT_AUTHORIZED_PATH = '/pages/miscellaneous/not-authorized';
export const NOT_FOUND_PATH = '/error-404';

export function screenByName(name: ScreenName): Screen {
  const screen = SCREENS.find((x) => x.name === name);
  if (!screen) throw new Error(`unknown screen ${name}`);
  return screen;
}
