import type { Action, Resource } from '../abilities.ts';

/**
 * Every screen of specification point 2, the only place their paths are written.
 * `resource` null means open (no sign-in needed); `navActiveLink` names the list screen a detail
 * screen highlights in the menu; `layout` full screens have no navigation frame.
 */
export type Screen = {
  name: string;
  path: string;
  title: string;
  layout: 'main' | 'full';
  resource: Resource | null;
  action: Action;
  /** Further rights the screen's data needs: a visitor without them does not see the screen at all. */
  alsoNeeds?: { action: Action; resource: Resource }[];
  navActiveLink?: string;
  /** Login and apply send signed-in users away (navigation rule 4). */
  redirectIfLoggedIn?: boolean;
  menu?: { group: 'dashboard' | 'system' | 'tracing'; order: number };
};
