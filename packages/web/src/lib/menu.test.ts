import { SCREENS, type UserData } from '@sextant/api';
import { describe, expect, it } from 'vitest';
import { activeMenuKey, menuFor } from './menu.ts';

const base: Omit<UserData, 'ability' | 'resourceNums' | 'role'> = {
  userid: '1',
  usertypes: [],
  performanceRiskRules: { trace_consuming_time_serious_threshold: 3, trace_consuming_time_warn_threshold: 1 },
};
const admin: UserData = {
  ...base,
  role: 'admin',
  ability: [{ action: 'manage', resource: 'all' }],
  resourceNums: { all: 1 },
};

describe('menu', () => {
  it('shows every menu screen to admin on the advanced edition, tracing last', () => {
    const groups = menuFor({ userData: admin, edition: 'advanced' });
    expect(groups.map((g) => g.key)).toEqual(['dashboard', 'system', 'tracing']);
    const shown = groups.flatMap((g) => g.screens.map((s) => s.name));
    expect(shown).toHaveLength(SCREENS.filter((s) => 'menu' in s).length);
  });

  it('drops tracing on the basic edition and requirements on lite', () => {
    expect(menuFor({ userData: admin, edition: 'basic' }).map((g) => g.key)).not.toContain('tracing');
    const lite = menuFor({ userData: admin, edition: 'lite' }).flatMap((g) => g.screens.map((s) => s.path));
    expect(lite).not.toContain('/system/requirementhList');
    expect(lite).not.toContain('/dashboard/requirementAnalytic');
  });

  it('shows a client nothing but what the client may read', () => {
    const client: UserData = {
      ...admin,
      role: 'client',
      ability: [{ action: 'read', resource: 'ACL' }],
      resourceNums: { ACL: 1 },
    };
    expect(menuFor({ userData: client, edition: 'advanced' })).toEqual([]);
  });

  it('hides the team dashboard from a role that may not read the app dashboards its figures come from', () => {
    const reader = (resources: string[]): UserData => ({
      ...admin,
      role: 'reviewer',
      ability: resources.map((resource) => ({ action: 'read', resource }) as UserData['ability'][number]),
      resourceNums: Object.fromEntries(resources.map((r) => [r, 1])),
    });
    const shown = (userData: UserData) =>
      menuFor({ userData, edition: 'advanced' }).flatMap((g) => g.screens.map((s) => s.name));
    expect(shown(reader(['TeamDashboard', 'Report']))).not.toContain('dashboard-team');
    expect(shown(reader(['TeamDashboard', 'Report']))).toContain('dashboard-dev-coverage');
    expect(shown(reader(['TeamDashboard', 'AppDashboard']))).toEqual(
      expect.arrayContaining(['dashboard-team', 'dashboard-app']),
    );
  });

  it('highlights the list screen for detail screens', () => {
    const detail = SCREENS.find((s) => s.path === '/dashboard/coverage/:id');
    expect(activeMenuKey(detail)).toBe('dashboard-dev-coverage');
  });
});
