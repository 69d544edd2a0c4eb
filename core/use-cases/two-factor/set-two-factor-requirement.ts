import * as v from 'valibot';
import { AppError } from '../../errors.ts';
import { parseInput } from '../../validation.ts';
import type { Clock } from '../../ports/clock.ts';
import type { Storage } from '../../ports/storage.ts';
import { hasSecondFactor } from './two-factor-support.ts';

export const TwoFactorRequirementInput = v.object({ required: v.boolean('must be true or false') });

/**
 * An owner or administrator (organization:write) requires two-factor of every member: members without a second
 * factor are walked through enrolment at their next sign-in. Turning it on takes a second factor of one's own, so
 * nobody locks themselves into an enrolment they did not expect. Errors: TWO_FACTOR_ENROLMENT_REQUIRED, VALIDATION_ERROR.
 */
export class SetTwoFactorRequirement {
  readonly #deps: { storage: Storage; clock: Clock };
  constructor(deps: { storage: Storage; clock: Clock }) { this.#deps = deps; }

  async execute(tenant: { organizationId: string; userId: string }, raw: unknown) {
    const input = parseInput(TwoFactorRequirementInput, raw);
    const { storage, clock } = this.#deps;
    if (input.required && !(await hasSecondFactor(storage, tenant.userId))) {
      throw new AppError('TWO_FACTOR_ENROLMENT_REQUIRED', 'Set up two-factor sign-in for yourself before requiring it of the organization');
    }
    await storage.twoFactorPolicies.setRequired(tenant.organizationId, input.required, clock.now());
    return { required: input.required };
  }
}
