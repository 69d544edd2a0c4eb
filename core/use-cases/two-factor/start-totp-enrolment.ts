import { AppError } from '../../errors.ts';
import { resolveEnroller, type Enroller, type TwoFactorDeps } from './two-factor-support.ts';

/**
 * Starts enrolling an authenticator app: a new secret, sealed at rest and shown this once (as text and as an
 * otpauth URI for a QR code). Starting again replaces a pending secret. Errors: CONFLICT (an authenticator is
 * already confirmed: turn two-factor off first), INVALID_CHALLENGE_TOKEN (sign-in enrolment).
 */
export class StartTotpEnrolment {
  readonly #deps: TwoFactorDeps;
  constructor(deps: TwoFactorDeps) { this.#deps = deps; }

  async execute(enroller: Enroller) {
    const { storage, totp, cipher, clock, settings } = this.#deps;
    const { userId } = await resolveEnroller(this.#deps, enroller);
    const [user, existing] = await Promise.all([storage.users.findById(userId), storage.secondFactors.findTotp(userId)]);
    if (!user) throw new AppError('NOT_FOUND', 'User not found');
    if (existing?.confirmedAt) throw new AppError('CONFLICT', 'An authenticator app is already set up; remove it before adding another');
    const secret = totp.newSecret();
    await storage.secondFactors.savePendingTotp(userId, cipher.encrypt(secret), clock.now());
    return { secret, otpauthUri: totp.uri(secret, user.email, settings.issuer) };
  }
}
