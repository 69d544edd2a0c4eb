import * as v from 'valibot';
import { AppError } from '../../errors.ts';
import { fields, parseInput } from '../../validation.ts';
import { ChallengeTokenField, completeSignIn, hasSecondFactor, issueRecoveryCodes, registrationChallengeId, resolveEnroller, type Enroller, type TwoFactorDeps } from './two-factor-support.ts';

const PasskeyResponse = v.looseObject({ id: v.pipe(v.string('must be a string'), v.maxLength(1024, 'is too long')), type: v.literal('public-key', 'must be public-key') });
export const RegisterPasskeyInput = v.object({ name: v.optional(fields.requiredText(60)), response: PasskeyResponse });
export const RegisterPasskeySignInInput = v.object({
  challengeToken: ChallengeTokenField, name: v.optional(fields.requiredText(60)), response: PasskeyResponse,
  deviceToken: v.optional(v.pipe(v.string('must be a string'), v.maxLength(256, 'is too long'))),
});

/**
 * Verifies the browser's registration answer against the kept challenge (single use) and stores the passkey's
 * public key. The first factor comes with recovery codes, shown once; at a sign-in enrolment the session too.
 * Errors: INVALID_SECOND_FACTOR (no pending registration, or the answer does not verify), CONFLICT (already registered).
 */
export class FinishPasskeyRegistration {
  readonly #deps: TwoFactorDeps;
  constructor(deps: TwoFactorDeps) { this.#deps = deps; }

  async execute(enroller: Enroller, raw: unknown, clientIp: string) {
    const input = 'userId' in enroller ? { ...parseInput(RegisterPasskeyInput, raw), deviceToken: undefined } : parseInput(RegisterPasskeySignInInput, raw);
    const { storage, passkeys, secrets, clock } = this.#deps;
    const { userId, challenge } = await resolveEnroller(this.#deps, enroller);
    const pendingId = challenge ? null : registrationChallengeId(secrets, userId);
    const pending = challenge ?? await storage.signInChallenges.find(pendingId!);
    const live = pending && pending.webauthnChallenge && pending.expiresAt.getTime() > clock.now().getTime() ? pending.webauthnChallenge : null;
    if (pendingId) await storage.signInChallenges.consume(pendingId);
    const credential = live ? await passkeys.verifyRegistration(input.response, live) : null;
    if (!credential) throw new AppError('INVALID_SECOND_FACTOR', live ? 'The passkey could not be verified' : 'No passkey registration is waiting; start again');
    const hadFactor = await hasSecondFactor(storage, userId);
    const now = clock.now();
    const passkey = { id: credential.id, userId, name: input.name ?? 'Passkey', publicKey: credential.publicKey, counter: credential.counter, transports: credential.transports, createdAt: now, lastUsedAt: null };
    await storage.secondFactors.addPasskey(passkey);
    const recoveryCodes = hadFactor ? null : await issueRecoveryCodes(this.#deps, userId);
    const view = { id: passkey.id, name: passkey.name, createdAt: now.toISOString(), lastUsedAt: null };
    if (!challenge) return { passkey: view, recoveryCodes };
    return { passkey: view, recoveryCodes, ...(await completeSignIn(this.#deps, challenge, clientIp, input.deviceToken)) };
  }
}
