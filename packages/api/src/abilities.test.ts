import { describe, expect, it } from 'vitest';
import {
  type Ability,
  ACTIONS,
  abilityAllows,
  can,
  EDITION_LABELS,
  EDITIONS,
  editionAllows,
  hasUserType,
  OPEN_RESOURCES,
  owns,
  RESOURCES,
  resourceAllows,
} from './abilities.ts';

// Specification point 6, read as a table of decisions. The expected answers are written here, not
// derived from the code. Mutation testing (scripts/mutation.mjs) runs this file against abilities.ts.
// Equivalent mutant, left alive on purpose: in `owns`, dropping `ownerId !== null &&` changes
// nothing, because a user id is a string and never equals null.

const TRACE_MODULE = ['Trace', 'Regression', 'InterfaceAnalytic', 'TraceManage'] as const;
const read = (resource: Ability['resource']): Ability => ({ action: 'read', resource });

describe('names stored in roles and sent to the web', () => {
  // Roles keep these names in the database and the web checks them: a renamed one orphans stored rows.
  it('keeps the actions and resources roles are stored with', () => {
    expect(ACTIONS).toEqual(['manage', 'read', 'create', 'update', 'delete']);
    expect(RESOURCES).toEqual([
      ...['all', 'Auth', 'ACL', 'TeamDashboard', 'AppDashboard', 'Report', 'Analytics', 'Risk', 'Cockpit'],
      ...['ProjectDashboard', 'Setting', 'Team', 'App', 'Case', 'Role', 'User', 'Branch', 'Project'],
      ...['Version', 'Requirement', 'Apply', 'AuditLog', 'TraceManage', 'Trace', 'Regression', 'InterfaceAnalytic'],
    ]);
  });
});

describe('editions (licence gating)', () => {
  it.each(TRACE_MODULE)('shows the trace module’s %s only in the advanced edition', (resource) => {
    expect(editionAllows('advanced', resource)).toBe(true);
    expect(editionAllows('basic', resource)).toBe(false);
    expect(editionAllows('lite', resource)).toBe(false);
  });

  it('hides requirements in the lite edition only', () => {
    expect(editionAllows('advanced', 'Requirement')).toBe(true);
    expect(editionAllows('basic', 'Requirement')).toBe(true);
    expect(editionAllows('lite', 'Requirement')).toBe(false);
  });

  it('shows everything else in every edition', () => {
    for (const edition of EDITIONS) {
      for (const resource of ['Report', 'User', 'Auth', 'Setting'] as const) {
        expect(editionAllows(edition, resource), `${edition} ${resource}`).toBe(true);
      }
    }
  });

  it('names the editions as the product does', () => {
    expect(EDITIONS).toEqual(['advanced', 'basic', 'lite']);
    expect(EDITION_LABELS).toEqual({ advanced: 'Efficiency Excellent', basic: 'Basic Quality', lite: 'Lite' });
  });
});

describe('abilities (action and resource)', () => {
  it('allows the exact pair and nothing else', () => {
    const abilities = [read('Report')];
    expect(abilityAllows(abilities, 'read', 'Report')).toBe(true);
    expect(abilityAllows(abilities, 'update', 'Report')).toBe(false);
    expect(abilityAllows(abilities, 'read', 'User')).toBe(false);
  });

  it('lets manage cover every action, on its resource only', () => {
    const abilities: Ability[] = [{ action: 'manage', resource: 'Team' }];
    for (const action of ['read', 'create', 'update', 'delete', 'manage'] as const) {
      expect(abilityAllows(abilities, action, 'Team'), action).toBe(true);
    }
    expect(abilityAllows(abilities, 'read', 'App')).toBe(false);
  });

  it('lets all cover every resource, for its action only', () => {
    const abilities: Ability[] = [{ action: 'read', resource: 'all' }];
    expect(abilityAllows(abilities, 'read', 'AuditLog')).toBe(true);
    expect(abilityAllows(abilities, 'delete', 'AuditLog')).toBe(false);
  });

  it('gives nothing to a user without abilities, and reads every ability held', () => {
    expect(abilityAllows([], 'read', 'Auth')).toBe(false);
    expect(abilityAllows([read('Report'), read('User')], 'read', 'User')).toBe(true);
  });
});

describe('resource map', () => {
  it('passes only when the map holds 1 for the resource or for all', () => {
    expect(resourceAllows({ Report: 1 }, 'Report')).toBe(true);
    expect(resourceAllows({ Report: 0 }, 'Report')).toBe(false);
    expect(resourceAllows({ User: 1 }, 'Report')).toBe(false);
    expect(resourceAllows({}, 'Report')).toBe(false);
    expect(resourceAllows({ all: 1 }, 'Report')).toBe(true);
    expect(resourceAllows({ all: 0 }, 'Report')).toBe(false);
  });

  it('opens Auth to every signed-in user (visitors read Auth) and nothing else', () => {
    expect([...OPEN_RESOURCES]).toEqual(['Auth']);
    expect(resourceAllows({}, 'Auth')).toBe(true);
    expect(resourceAllows({ Auth: 0 }, 'Auth')).toBe(true);
  });
});

describe('can: edition, then ability, then resource map', () => {
  const client = { ability: [read('Report'), read('Trace')], resourceNums: { Report: 1, Trace: 1 } } as const;

  it('allows when all three agree', () => {
    expect(can({ ...client, edition: 'advanced' }, 'read', 'Report')).toBe(true);
    expect(can({ ...client, edition: 'advanced' }, 'read', 'Trace')).toBe(true);
  });

  it('refuses when any one of the three refuses', () => {
    expect(can({ ...client, edition: 'basic' }, 'read', 'Trace')).toBe(false);
    expect(can({ ...client, edition: 'advanced' }, 'update', 'Report')).toBe(false);
    expect(can({ ...client, resourceNums: { Trace: 1 }, edition: 'advanced' }, 'read', 'Report')).toBe(false);
  });
});

describe('ownership and user types', () => {
  const alice = { userid: 'u-alice', usertypes: [2] };

  it('owns an item whose owner id is the user’s', () => {
    expect(owns(alice, 'u-alice')).toBe(true);
    expect(owns(alice, 'u-bob')).toBe(false);
    expect(owns(alice, null)).toBe(false);
  });

  it('lets the administrator type (1) own everything, even an item without an owner', () => {
    expect(owns({ userid: 'u-root', usertypes: [3, 1] }, 'u-bob')).toBe(true);
    expect(owns({ userid: 'u-root', usertypes: [1] }, null)).toBe(true);
  });

  it('checks a user type by membership', () => {
    expect(hasUserType(alice, 2)).toBe(true);
    expect(hasUserType(alice, 1)).toBe(false);
  });
});
