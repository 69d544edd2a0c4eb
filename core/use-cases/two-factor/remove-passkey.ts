import { AppError } from '../../errors.ts';
import { parseInput } from '../../validation.ts';
import { hasSecondFactor, ProofInput, requireProof, type TwoFactorDeps } from './two-factor-support.ts';

/**
 * Removes one passkey of the signed-in user, with the password or a current code. Removing the last factor turns
 * two-factor off (recovery codes go too). Errors: NOT_FOUND, VALIDATION_ERROR, INVALID_CREDENTIALS, INVALID_SECOND_FACTOR, RATE_LIMITED.
 */
export class RemovePasskey {
  readonly #deps: TwoFactorDeps;
  constructor(deps: TwoFactorDeps) { this.#deps = deps; }

  async execute(userId: string, passkeyId: string, raw: unknown) {
    const proof = parseInput(ProofInput, raw);
    const { storage } = this.#deps;
    if (!(await storage.secondFactors.findPasskey(userId, passkeyId))) throw new AppError('NOT_FOUND', 'Passkey not found');
    await requireProof(this.#deps, userId, proof);
    if (!(await storage.secondFactors.deletePasskey(userId, passkeyId))) throw new AppError('NOT_FOUND', 'Passkey not found');
    const enabled = await hasSecondFactor(storage, userId);
    if (!enabled) await storage.secondFactors.deleteAll(userId);
    return { removed: true, enabled };
  }
}
