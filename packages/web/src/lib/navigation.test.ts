import { DEFAULT_SETTINGS, HOME_PATH, SCREENS, type Screen, type UserData } from '@sextant/api';
import { describe, expect, it } from 'vitest';
import { coverageTone, traceTone } from './grades.ts';
import { guard, landingPath } from './navigation.ts';

const screen = (path: string): Screen => {
  const found = SCREENS.find((s) => s.path === path);
  if (!found) throw new Error(path);
  return found;
};
const admin: UserData = {
  userid: '1',
  usertypes: [1],
  resourceNums: { all: 1 },
  performanceRiskRules: { trace_consuming_time_serious_threshold: 3, trace_consuming_time_warn_threshold: 1 },
  ability: [{ action: 'manage', resource: 'all' }],
  role: 'admin',
};
const client: UserData = {
  ...admin,
  userid: '2',
  usertypes: [],
  resourceNums: { ACL: 1, Auth: 1 },
  ability: [
    { action: 'read', resource: 'ACL' },
    { action: 'read', resource: 'Auth' },
  ],
  role: 'client',
};
const edition = DEFAULT_SETTINGS.licenseVersion;
const home = screen(HOME_PATH);

describe('navigation rules of specification point 4', () => {
  it('sends a signed-out visitor to login and remembers the wanted path (rule 2)', () => {
    expect(guard({ userData: null, edition }, screen('/system/userList'))).toEqual({
      kind: 'redirect',
      to: '/login',
      rememberWanted: true,
    });
  });

  it('sends a signed-in visitor without the permission to not-authorized (rule 1)', () => {
    expect(guard({ userData: client, edition }, screen('/system/userList'))).toEqual({
      kind: 'redirect',
      to: '/pages/miscellaneous/not-authorized',
    });
    expect(guard({ userData: client, edition }, screen('/access-control'))).toEqual({ kind: 'allow' });
  });

  it('hides tracing screens outside the advanced edition, even from admin', () => {
    expect(guard({ userData: admin, edition: 'advanced' }, screen('/otel/otel')).kind).toBe('allow');
    expect(guard({ userData: admin, edition: 'basic' }, screen('/otel/otel')).kind).toBe('redirect');
    expect(guard({ userData: admin, edition: 'lite' }, screen('/system/requirementhList')).kind).toBe('redirect');
  });

  it('uses the stored path first, then admin to / and client to access control (rule 3)', () => {
    expect(landingPath({ userData: admin, edition }, '/system/userList', home)).toBe('/system/userList');
    expect(landingPath({ userData: admin, edition }, null, home)).toBe('/');
    expect(landingPath({ userData: client, edition }, null, home)).toBe('/access-control');
    expect(landingPath({ userData: null, edition }, null, home)).toBe('/login');
  });

  it('sends signed-in users away from login and apply (rule 4)', () => {
    expect(guard({ userData: client, edition }, screen('/login')).kind).toBe('redirect');
    expect(guard({ userData: null, edition }, screen('/apply')).kind).toBe('allow');
  });
});

describe('colour rules of specification point 9', () => {
  const grades = { excellentGrade: 0.8, passingGrade: 0.6 };
  it('grades coverage at the boundaries', () => {
    expect([0.8, 0.7999, 0.6, 0.5999].map((v) => coverageTone(v, grades))).toEqual([
      'success',
      'warning',
      'warning',
      'danger',
    ]);
  });
  it('colours trace times in milliseconds from thresholds in seconds', () => {
    const rules = { trace_consuming_time_warn_threshold: 1, trace_consuming_time_serious_threshold: 3 };
    expect([999, 1000, 2999, 3000].map((ms) => traceTone(ms, rules))).toEqual([
      'success',
      'warning',
      'warning',
      'danger',
    ]);
  });
});
