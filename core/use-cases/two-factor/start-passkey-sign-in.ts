import * as v from 'valibot';
import { AppError } from '../../errors.ts';
import { parseInput } from '../../validation.ts';
import { ChallengeTokenField, openChallenge, type TwoFactorDeps } from './two-factor-support.ts';

export const PasskeySignInOptionsInput = v.object({ challengeToken: ChallengeTokenField });

/**
 * WebAuthn request options for the second step of a sign-in, allowing the user's passkeys; the WebAuthn challenge
 * is kept on the sign-in challenge. Errors: INVALID_CHALLENGE_TOKEN, TWO_FACTOR_ENROLMENT_REQUIRED, NOT_FOUND (no passkey).
 */
export class StartPasskeySignIn {
  readonly #deps: TwoFactorDeps;
  constructor(deps: TwoFactorDeps) { this.#deps = deps; }

  async execute(raw: unknown) {
    const input = parseInput(PasskeySignInOptionsInput, raw);
    const challenge = await openChallenge(this.#deps, input.challengeToken, 'second_factor');
    const passkeys = await this.#deps.storage.secondFactors.listPasskeys(challenge.userId);
    if (passkeys.length === 0) throw new AppError('NOT_FOUND', 'No passkey is registered for this account; use your authenticator app or a recovery code');
    const { options, challenge: webauthnChallenge } = await this.#deps.passkeys.authenticationOptions(passkeys);
    await this.#deps.storage.signInChallenges.setWebauthnChallenge(challenge.id, webauthnChallenge);
    return { options };
  }
}
