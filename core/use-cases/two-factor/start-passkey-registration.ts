import { AppError } from '../../errors.ts';
import { MAX_PASSKEYS_PER_USER } from '../../ports/second-factor-repository.ts';
import { registrationChallengeId, resolveEnroller, type Enroller, type TwoFactorDeps } from './two-factor-support.ts';

/**
 * Starts registering a passkey: WebAuthn creation options for the browser; the challenge is kept server-side
 * (on the sign-in challenge at a sign-in enrolment, else one pending registration per user) for the finish step.
 * Errors: LIMIT_REACHED (MAX_PASSKEYS_PER_USER), INVALID_CHALLENGE_TOKEN.
 */
export class StartPasskeyRegistration {
  readonly #deps: TwoFactorDeps;
  constructor(deps: TwoFactorDeps) { this.#deps = deps; }

  async execute(enroller: Enroller) {
    const { storage, passkeys, secrets, clock, settings } = this.#deps;
    const { userId, challenge } = await resolveEnroller(this.#deps, enroller);
    const [user, existing] = await Promise.all([storage.users.findById(userId), storage.secondFactors.listPasskeys(userId)]);
    if (!user) throw new AppError('NOT_FOUND', 'User not found');
    if (existing.length >= MAX_PASSKEYS_PER_USER) throw new AppError('LIMIT_REACHED', `At most ${MAX_PASSKEYS_PER_USER} passkeys per user`);
    const displayName = `${user.firstName} ${user.lastName}`.trim() || user.email;
    const { options, challenge: webauthnChallenge } = await passkeys.registrationOptions({ id: user.id, name: user.email, displayName }, existing);
    if (challenge) {
      await storage.signInChallenges.setWebauthnChallenge(challenge.id, webauthnChallenge);
    } else {
      const now = clock.now();
      await storage.signInChallenges.save({
        id: registrationChallengeId(secrets, userId), userId, kind: 'passkey_registration', webauthnChallenge,
        expiresAt: new Date(now.getTime() + settings.challengeTtlSeconds * 1000), createdAt: now,
      });
    }
    return { options };
  }
}
