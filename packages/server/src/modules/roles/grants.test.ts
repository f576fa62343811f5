import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../errors.ts';
import { callerRights, type Rights, refuseEscalation, rightsBeyond } from './grants.ts';

// Who may hand out which rights (issue 32, finding 3: no self-promotion), decision by decision.
// roles.test.ts and the users tests check the same rules through the routes; this file is the one
// scripts/mutation.mjs runs against grants.ts. One mutant survives it, equivalent: a holder without
// user types taken as holding `["Stryker was here"]` instead of `[]` (user types are numbers, so a
// string among them never matches one, nor the administrator type 1).

const none: Rights = { ability: [], resourceNums: {} };
const holder = (rights: Partial<Rights>): Rights => ({ ...none, ...rights });

describe('rightsBeyond: what the granted rights hold that the holder lacks', () => {
  it('is empty when the holder holds the same ability', () => {
    const reportReader = holder({ ability: [{ action: 'read', resource: 'Report' }] });
    expect(rightsBeyond(reportReader, reportReader)).toEqual([]);
    expect(rightsBeyond(none, reportReader)).toEqual([]);
  });

  it('names an ability of another action or resource', () => {
    const granted = holder({
      ability: [
        { action: 'update', resource: 'Report' },
        { action: 'read', resource: 'User' },
      ],
    });
    expect(rightsBeyond(granted, holder({ ability: [{ action: 'read', resource: 'Report' }] }))).toEqual([
      'update Report',
      'read User',
    ]);
  });

  it('covers a manage ability only by manage, and every resource by all', () => {
    const manageTeam = holder({ ability: [{ action: 'manage', resource: 'Team' }] });
    const everyActionOnTeam = holder({
      ability: (['read', 'create', 'update', 'delete'] as const).map((action) => ({ action, resource: 'Team' })),
    });
    expect(rightsBeyond(manageTeam, everyActionOnTeam)).toEqual(['manage Team']);
    expect(rightsBeyond(manageTeam, holder({ ability: [{ action: 'manage', resource: 'all' }] }))).toEqual([]);
  });

  it('names each resource opened with 1 that the holder has not opened', () => {
    const granted = holder({ resourceNums: { Report: 1, User: 0, Team: 1 } });
    expect(rightsBeyond(granted, none)).toEqual(['resource Report', 'resource Team']);
    expect(rightsBeyond(granted, holder({ resourceNums: { Team: 1 } }))).toEqual(['resource Report']);
    expect(rightsBeyond(granted, holder({ resourceNums: { all: 1 } }))).toEqual([]);
  });

  it('never counts Auth, which every signed-in user may read, as beyond', () => {
    expect(rightsBeyond(holder({ resourceNums: { Auth: 1 } }), none)).toEqual([]);
  });

  it('names user types the holder lacks, unless the holder is an administrator (type 1)', () => {
    const granted = holder({ usertypes: [2, 3] });
    expect(rightsBeyond(granted, none)).toEqual(['user type 2', 'user type 3']);
    expect(rightsBeyond(granted, holder({ usertypes: [3] }))).toEqual(['user type 2']);
    expect(rightsBeyond(granted, holder({ usertypes: [1] }))).toEqual([]);
    expect(rightsBeyond(holder({ usertypes: [1] }), holder({ usertypes: [2] }))).toEqual(['user type 1']);
    expect(rightsBeyond(none, holder({ usertypes: [2] }))).toEqual([]);
  });

  it('lists abilities, then resources, then user types', () => {
    const granted = holder({
      ability: [{ action: 'read', resource: 'Risk' }],
      resourceNums: { Risk: 1 },
      usertypes: [4],
    });
    expect(rightsBeyond(granted, none)).toEqual(['read Risk', 'resource Risk', 'user type 4']);
  });
});

describe('refuseEscalation', () => {
  const refusal = (granted: Rights, what = 'The role Tester'): ApiError => {
    try {
      refuseEscalation(granted, none, what);
    } catch (e) {
      if (e instanceof ApiError) return e;
      throw e;
    }
    throw new Error('not refused');
  };

  it('lets a holder of everything granted pass', () => {
    expect(() => refuseEscalation(holder({ usertypes: [2] }), holder({ usertypes: [2] }), 'x')).not.toThrow();
  });

  it('refuses with 403 forbidden, naming what and the rights beyond', () => {
    const e = refusal(holder({ ability: [{ action: 'read', resource: 'Report' }], resourceNums: { Report: 1 } }));
    expect([e.status, e.error]).toEqual([403, 'forbidden']);
    expect(e.message).toBe(
      'The role Tester holds rights you do not have (read Report, resource Report); you cannot grant or change it.',
    );
  });

  it('lists five rights in full and cuts a longer list after five', () => {
    expect(refusal(holder({ usertypes: [2, 3, 4, 5, 6] }), 'This account').message).toBe(
      'This account holds rights you do not have (user type 2, user type 3, user type 4, user type 5, ' +
        'user type 6); you cannot grant or change it.',
    );
    expect(refusal(holder({ usertypes: [2, 3, 4, 5, 6, 7] }), 'This account').message).toBe(
      'This account holds rights you do not have (user type 2, user type 3, user type 4, user type 5, ' +
        'user type 6, …); you cannot grant or change it.',
    );
  });
});

describe('callerRights', () => {
  it('reads the signed-in caller’s id and rights from the request', () => {
    const userData = {
      userid: 'u-1',
      ability: [{ action: 'read', resource: 'Report' }],
      resourceNums: { Report: 1 },
      usertypes: [2],
    };
    const req = { principal: { userData } } as unknown as FastifyRequest;
    expect(callerRights(req)).toEqual({
      id: 'u-1',
      ability: userData.ability,
      resourceNums: { Report: 1 },
      usertypes: [2],
    });
  });

  it('fails loudly on a route that reached it without a principal', () => {
    expect(() => callerRights({} as FastifyRequest)).toThrow('guarded route without a principal');
  });
});
