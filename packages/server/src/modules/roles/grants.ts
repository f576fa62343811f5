import {
  type Ability,
  ADMINISTRATOR_TYPE,
  abilityAllows,
  type Resource,
  type ResourceNums,
  resourceAllows,
} from '@sextant/api';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../errors.ts';

/** What a role or an account holds: abilities, opened resources and (for accounts) user types. */
export type Rights = { ability: readonly Ability[]; resourceNums: ResourceNums; usertypes?: readonly number[] };

/**
 * What `granted` holds that `holder` lacks, in words (empty when `holder` covers it all). A `manage`
 * or `all` ability is covered only by a `manage` or `all` one. User type 1 (administrator, spec
 * point 6) owns everything, so only its holders hand out user types they do not hold themselves.
 */
export function rightsBeyond(granted: Rights, holder: Rights): string[] {
  const beyond: string[] = [];
  for (const a of granted.ability) {
    if (!abilityAllows(holder.ability, a.action, a.resource)) beyond.push(`${a.action} ${a.resource}`);
  }
  for (const [resource, open] of Object.entries(granted.resourceNums)) {
    if (open === 1 && !resourceAllows(holder.resourceNums, resource as Resource)) beyond.push(`resource ${resource}`);
  }
  const holderTypes = holder.usertypes ?? [];
  if (!holderTypes.includes(ADMINISTRATOR_TYPE)) {
    for (const type of granted.usertypes ?? []) if (!holderTypes.includes(type)) beyond.push(`user type ${type}`);
  }
  return beyond;
}

/** 403 unless `holder` holds everything `granted` does; `what` names the role or account, for the message. */
export function refuseEscalation(granted: Rights, holder: Rights, what: string): void {
  const beyond = rightsBeyond(granted, holder);
  if (beyond.length === 0) return;
  const listed = beyond.length > 5 ? `${beyond.slice(0, 5).join(', ')}, …` : beyond.join(', ');
  throw new ApiError(
    403,
    'forbidden',
    `${what} holds rights you do not have (${listed}); you cannot grant or change it.`,
  );
}

/** The signed-in caller's own rights (the access plugin guarantees a principal on guarded routes). */
export function callerRights(req: FastifyRequest): Rights & { id: string } {
  const user = req.principal?.userData;
  if (!user) throw new Error('guarded route without a principal');
  return { id: user.userid, ability: user.ability, resourceNums: user.resourceNums, usertypes: user.usertypes };
}
