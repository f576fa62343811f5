import type { Case } from '@sextant/api';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../errors.ts';

export const LITE_HIDES_REQUIREMENTS = 'Requirements are not part of the Lite edition.';

/** Specification point 6: the lite edition hides requirements, so cases neither show nor take one. */
export function requirementsHidden(req: FastifyRequest): boolean {
  return req.principal?.settings.licenseVersion === 'lite';
}

export function withoutRequirement<T extends Pick<Case, 'requirementId' | 'requirementKey'>>(item: T): T {
  return { ...item, requirementId: null, requirementKey: null };
}

export function refuseRequirementWhenHidden(req: FastifyRequest, requirementId: string | null | undefined): void {
  if (requirementId && requirementsHidden(req)) {
    throw new ApiError(400, 'validation-failed', LITE_HIDES_REQUIREMENTS, { requirementId: LITE_HIDES_REQUIREMENTS });
  }
}
