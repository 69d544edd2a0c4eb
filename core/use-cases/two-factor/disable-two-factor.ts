import { parseInput } from '../../validation.ts';
import { ProofInput, requireProof, type TwoFactorDeps } from './two-factor-support.ts';

/**
 * Turns two-factor off for the signed-in user: removes the authenticator, every passkey and every recovery code.
 * Takes the password or a current code. If an organization or the platform requires two-factor, the next sign-in
 * walks the user through enrolment again. Errors: VALIDATION_ERROR, INVALID_CREDENTIALS, INVALID_SECOND_FACTOR, RATE_LIMITED.
 */
export class DisableTwoFactor {
  readonly #deps: TwoFactorDeps;
  constructor(deps: TwoFactorDeps) { this.#deps = deps; }

  async execute(userId: string, raw: unknown) {
    const proof = parseInput(ProofInput, raw);
    await requireProof(this.#deps, userId, proof);
    await this.#deps.storage.transaction((tx) => tx.secondFactors.deleteAll(userId));
    return { enabled: false };
  }
}
