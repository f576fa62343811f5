import { SCREENS, type Screen } from '@sextant/api';
import { mayUse, type Visitor } from './navigation.ts';

export type MenuGroup = { key: 'dashboard' | 'system' | 'tracing'; label: string; screens: Screen[] };

const GROUP_LABELS: Record<MenuGroup['key'], string> = {
  dashboard: 'Dashboards',
  system: 'System',
  tracing: 'Tracing',
};

/** The menu shows only the screens this visitor may open under the current edition. */
export function menuFor(visitor: Visitor): MenuGroup[] {
  const groups: MenuGroup[] = [];
  for (const key of Object.keys(GROUP_LABELS) as MenuGroup['key'][]) {
    const screens = SCREENS.filter((s): s is Screen & { menu: NonNullable<Screen['menu']> } => s.menu?.group === key)
      .filter((s) => mayUse(visitor, s))
      .sort((a, b) => a.menu.order - b.menu.order);
    if (screens.length > 0) groups.push({ key, label: GROUP_LABELS[key], screens });
  }
  return groups;
}

/** Detail, add and edit screens highlight their list screen (specification point 2). */
export function activeMenuKey(screen: Screen | undefined): string | undefined {
  return screen ? (screen.navActiveLink ?? screen.name) : undefined;
}
