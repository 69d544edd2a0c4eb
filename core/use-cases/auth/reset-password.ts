import * as v from 'valibot';
import { AppError } from '../../errors.ts';
import { parseInput } from '../../validation.ts';
import { passwordWeakness, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../domain/password-policy.ts';
import type { Clock } from '../../ports/clock.ts';
import type { PasswordHasher } from '../../ports/password-hasher.ts';
import type { RateLimiter } from '../../ports/rate-limiter.ts';
import type { Secrets } from '../../ports/secrets.ts';
import type { Storage } from '../../ports/storage.ts';
import { LOGIN_WINDOW_SECONDS, loginThrottleKeys } from './login-clients.ts';

export const ResetPasswordInput = v.object({
  token: v.pipe(v.string('must be a string'), v.trim(), v.minLength(1, 'is required'), v.maxLength(512, 'is too long')),
  password: v.pipe(v.string('must be a string'), v.minLength(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`),
    v.maxLength(PASSWORD_MAX_LENGTH, `must be at most ${PASSWORD_MAX_LENGTH} characters`)),
});

export interface ResetPasswordDeps {
  storage: Storage;
  secrets: Secrets;
  passwords: PasswordHasher;
  rateLimiter: RateLimiter;
  clock: Clock;
}

export const PASSWORD_UPDATED = 'Your password has been updated; sign in with the new one.';

/**
 * Sets a new password with an emailed reset token. In one transaction: the token is consumed (an
 * atomic conditional update, so two concurrent resets never both win), the password hash replaced and
 * every other open token of the user invalidated, the user's known login devices and addresses forgotten
 * (a stolen device token is trusted no more). Then the login throttles that could keep the owner out are
 * lifted: the account-wide one and the one of this client address (docs/permissions.md). Errors: VALIDATION_ERROR (including a password
 * under 8 characters), WEAK_PASSWORD (checked first, so a weak choice does not burn the token),
 * INVALID_RESET_TOKEN (unknown, used or expired; one code for all three, nothing to probe).
 */
export class ResetPassword {
  readonly #deps: ResetPasswordDeps;
  constructor(deps: ResetPasswordDeps) { this.#deps = deps; }

  async execute(raw: unknown, clientIp?: string): Promise<{ message: string }> {
    const input = parseInput(ResetPasswordInput, raw);
    const weakness = passwordWeakness(input.password);
    if (weakness) {
      throw new AppError('WEAK_PASSWORD', `password ${weakness}`, { fieldErrors: { password: [weakness] }, formErrors: [] });
    }
    const { storage, secrets, passwords, rateLimiter, clock } = this.#deps;
    const tokenHash = secrets.sha256(input.token);
    const now = clock.now();

    const email = await storage.transaction(async (tx) => {
      const userId = await tx.passwordResets.consume(tokenHash, now);
      if (!userId) throw new AppError('INVALID_RESET_TOKEN', 'This password reset link is invalid or has expired; ask for a new one');
      // Hashed after the token is known good, so invalid tokens cost no argon2 work.
      await tx.users.updatePassword(userId, await passwords.hash(input.password));
      await tx.passwordResets.invalidateForUser(userId, now);
      await tx.sessionRevocations.revokeUserSessionsBefore(userId, now); // a stolen session ends with the old password
      await tx.knownLoginClients.forgetUser(userId);
      return (await tx.users.findById(userId))?.email ?? null;
    });
    if (email) {
      // The reset proved control of the account: the owner signs in at once, whatever attackers did to the counters.
      await rateLimiter.clear(loginThrottleKeys.account(email), LOGIN_WINDOW_SECONDS);
      if (clientIp) await rateLimiter.clear(loginThrottleKeys.pair(email, clientIp), LOGIN_WINDOW_SECONDS);
    }
    return { message: PASSWORD_UPDATED };
  }
}
