import { AppError } from '../../errors.ts';
import { parseInput } from '../../validation.ts';
import { hasSecondFactor, issueRecoveryCodes, ProofInput, requireProof, type TwoFactorDeps } from './two-factor-support.ts';

/**
 * Replaces the signed-in user's recovery codes with a fresh set, shown this once (the old ones stop working).
 * Takes the password or a current code. Errors: CONFLICT (two-factor is off), VALIDATION_ERROR, INVALID_CREDENTIALS,
 * INVALID_SECOND_FACTOR, RATE_LIMITED.
 */
export class RegenerateRecoveryCodes {
  readonly #deps: TwoFactorDeps;
  constructor(deps: TwoFactorDeps) { this.#deps = deps; }

  async execute(userId: string, raw: unknown) {
    const proof = parseInput(ProofInput, raw);
    if (!(await hasSecondFactor(this.#deps.storage, userId))) throw new AppError('CONFLICT', 'Two-factor sign-in is off; enrol an authenticator app or a passkey first');
    await requireProof(this.#deps, userId, proof);
    return { recoveryCodes: await issueRecoveryCodes(this.#deps, userId) };
  }
}
