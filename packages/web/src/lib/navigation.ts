import {
  CLIENT_HOME_PATH,
  can,
  type Edition,
  LOGIN_PATH,
  NOT_AUTHORIZED_PATH,
  type Screen,
  type UserData,
} from '@sextant/api';

export type Visitor = { userData: UserData | null; edition: Edition };

export type GuardDecision = { kind: 'allow' } | { kind: 'redirect'; to: string; rememberWanted?: boolean };

/**
 * Where a signed-in user lands (navigation rule 3, and rule 4 for login/apply): the stored wanted
 * path once; else admin to `/` and client to the access-control screen. Roles beyond the two the
 * specification names go to `/` when they may read it, otherwise to access control.
 */
export function landingPath(visitor: Visitor, wantedPath: string | null, homeScreen: Screen): string {
  const { userData } = visitor;
  if (!userData) return LOGIN_PATH;
  if (wantedPath) return wantedPath;
  if (userData.role === 'admin') return '/';
  if (userData.role === 'client') return CLIENT_HOME_PATH;
  return mayUse(visitor, homeScreen) ? '/' : CLIENT_HOME_PATH;
}

export function mayUse(visitor: Visitor, screen: Screen): boolean {
  if (screen.resource === null) return true;
  const { userData } = visitor;
  if (!userData) return false;
  const permissions = { ability: userData.ability, resourceNums: userData.resourceNums, edition: visitor.edition };
  const needs = [{ action: screen.action, resource: screen.resource }, ...(screen.alsoNeeds ?? [])];
  return needs.every((need) => can(permissions, need.action, need.resource));
}

/** Navigation rules 1, 2 and 4 of specification point 4, for one screen. */
export function guard(visitor: Visitor, screen: Screen): GuardDecision {
  if (screen.redirectIfLoggedIn && visitor.userData) return { kind: 'redirect', to: 'landing' };
  if (screen.resource === null) return { kind: 'allow' };
  if (!visitor.userData) return { kind: 'redirect', to: LOGIN_PATH, rememberWanted: true };
  if (!mayUse(visitor, screen)) return { kind: 'redirect', to: NOT_AUTHORIZED_PATH };
  return { kind: 'allow' };
}
