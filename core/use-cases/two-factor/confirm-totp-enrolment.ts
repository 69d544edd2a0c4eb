import * as v from 'valibot';
import { AppError } from '../../errors.ts';
import { normalizeTotpCode } from '../../domain/two-factor.ts';
import { parseInput } from '../../validation.ts';
import { attemptGuard, ChallengeTokenField, CodeField, completeSignIn, hasSecondFactor, issueRecoveryCodes, resolveEnroller, type Enroller, type TwoFactorDeps } from './two-factor-support.ts';

export const ConfirmTotpInput = v.object({ code: CodeField });
export const ConfirmTotpSignInInput = v.object({
  challengeToken: ChallengeTokenField, code: CodeField, deviceToken: v.optional(v.pipe(v.string('must be a string'), v.maxLength(256, 'is too long'))),
});

/**
 * Confirms a pending authenticator with its first code (that code's time step is then spent). The first factor a
 * user enrols comes with recovery codes, shown this once. At a sign-in enrolment the answer also carries the session.
 * Errors: INVALID_SECOND_FACTOR (wrong code, or nothing pending), INVALID_CHALLENGE_TOKEN, RATE_LIMITED.
 */
export class ConfirmTotpEnrolment {
  readonly #deps: TwoFactorDeps;
  constructor(deps: TwoFactorDeps) { this.#deps = deps; }

  async execute(enroller: Enroller, raw: unknown, clientIp: string) {
    const input = 'userId' in enroller ? { ...parseInput(ConfirmTotpInput, raw), deviceToken: undefined } : parseInput(ConfirmTotpSignInInput, raw);
    const { storage, totp, cipher, clock } = this.#deps;
    const { userId, challenge } = await resolveEnroller(this.#deps, enroller);
    const guard = await attemptGuard(this.#deps, userId);
    const pending = await storage.secondFactors.findTotp(userId);
    const digits = normalizeTotpCode(input.code);
    const step = pending && !pending.confirmedAt && digits ? await totp.verify(cipher.decrypt(pending.sealedSecret), digits, clock.now(), null) : null;
    const hadFactor = await hasSecondFactor(storage, userId);
    if (step === null || !(await storage.secondFactors.confirmTotp(userId, step, clock.now()))) {
      return guard.failed(new AppError('INVALID_SECOND_FACTOR', pending && !pending.confirmedAt ? 'The code is wrong; check the time on your device and try the current code' : 'No authenticator app is waiting for confirmation; start again'));
    }
    const recoveryCodes = hadFactor ? null : await issueRecoveryCodes(this.#deps, userId);
    if (!challenge) return { enabled: true, recoveryCodes };
    return { recoveryCodes, ...(await completeSignIn(this.#deps, challenge, clientIp, input.deviceToken)) };
  }
}
