import * as v from 'valibot';
import { AppError } from '../../errors.ts';
import { parseInput } from '../../validation.ts';
import { attemptGuard, ChallengeTokenField, CodeField, completeSignIn, openChallenge, spendRecoveryCode, spendTotpCode, type TwoFactorDeps } from './two-factor-support.ts';

export const CompleteTwoFactorSignInInput = v.pipe(
  v.object({
    challengeToken: ChallengeTokenField,
    /** A current code of the authenticator app. */
    code: v.optional(CodeField),
    /** One of the recovery codes (each works once). */
    recoveryCode: v.optional(CodeField),
    /** The browser's WebAuthn assertion (after POST /auth/login/two-factor/passkey-options). */
    passkey: v.optional(v.looseObject({ id: v.pipe(v.string('must be a string'), v.maxLength(1024, 'is too long')) })),
    deviceToken: v.optional(v.pipe(v.string('must be a string'), v.maxLength(256, 'is too long'))),
  }),
  v.check((i) => [i.code, i.recoveryCode, i.passkey].filter((x) => x !== undefined).length === 1, 'give exactly one of code, recoveryCode or passkey'),
);

/**
 * The second step of a sign-in: the challenge token of the password step plus one factor. A TOTP code's time
 * step is spent (a code works once), a recovery code is used up, a passkey's counter advances. On success the
 * challenge is consumed and the answer is the normal login answer (session token, device token, profile,
 * organizations). Failures count per user (RATE_LIMITED once over the login limit within 15 minutes).
 * Errors: INVALID_SECOND_FACTOR, INVALID_CHALLENGE_TOKEN, TWO_FACTOR_ENROLMENT_REQUIRED, RATE_LIMITED.
 */
export class CompleteTwoFactorSignIn {
  readonly #deps: TwoFactorDeps;
  constructor(deps: TwoFactorDeps) { this.#deps = deps; }

  async execute(raw: unknown, clientIp: string) {
    const input = parseInput(CompleteTwoFactorSignInInput, raw);
    const challenge = await openChallenge(this.#deps, input.challengeToken, 'second_factor');
    const userId = challenge.userId;
    const guard = await attemptGuard(this.#deps, userId);
    if (input.code !== undefined) {
      if (!(await spendTotpCode(this.#deps, userId, input.code))) await guard.failed(new AppError('INVALID_SECOND_FACTOR', 'The code is wrong or was already used; wait for the next code'));
    } else if (input.recoveryCode !== undefined) {
      if (!(await spendRecoveryCode(this.#deps, userId, input.recoveryCode))) await guard.failed(new AppError('INVALID_SECOND_FACTOR', 'The recovery code is wrong or was already used'));
    } else if (!(await this.#verifyPasskey(userId, challenge.webauthnChallenge, input.passkey))) {
      await guard.failed(new AppError('INVALID_SECOND_FACTOR', 'The passkey could not be verified'));
    }
    return completeSignIn(this.#deps, challenge, clientIp, input.deviceToken);
  }

  async #verifyPasskey(userId: string, expectedChallenge: string | null, response: unknown): Promise<boolean> {
    const { storage, passkeys, clock } = this.#deps;
    const credentialId = passkeys.credentialIdOf(response);
    const passkey = credentialId && expectedChallenge ? await storage.secondFactors.findPasskey(userId, credentialId) : null;
    const verified = passkey && expectedChallenge ? await passkeys.verifyAuthentication(response, expectedChallenge, passkey) : null;
    if (!passkey || !verified) return false;
    await storage.secondFactors.recordPasskeyUse(userId, passkey.id, verified.counter, clock.now());
    return true;
  }
}
