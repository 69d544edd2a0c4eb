import * as v from 'valibot';
import { AppError } from '../../errors.ts';
import { fields, parseInput } from '../../validation.ts';
import { toUserProfile } from '../../domain/user.ts';
import type { Clock } from '../../ports/clock.ts';
import type { PasswordHasher } from '../../ports/password-hasher.ts';
import type { RateLimiter } from '../../ports/rate-limiter.ts';
import type { SessionTokens } from '../../ports/session-tokens.ts';
import type { Storage } from '../../ports/storage.ts';
import { listUserOrganizations } from './list-user-organizations.ts';

export const LogInInput = v.object({
  email: fields.email(),
  password: v.pipe(v.string('must be a string'), v.minLength(1, 'is required'), v.maxLength(1024, 'is too long')),
});

export interface LogInDeps {
  storage: Storage;
  passwords: PasswordHasher;
  sessions: SessionTokens;
  rateLimiter: RateLimiter;
  clock: Clock;
  sessionTtlSeconds: number;
  /** Attempts allowed per email and per client IP in a 15-minute window. */
  limits: { perEmail: number; perIp: number };
}

const WINDOW_SECONDS = 15 * 60;

/**
 * Exchanges email and password for a session token and the user's organizations. Errors:
 * INVALID_CREDENTIALS (same message for unknown email and wrong password), RATE_LIMITED.
 */
export class LogIn {
  readonly #deps: LogInDeps;
  /** A real hash verified for unknown emails, so they cost the same time as known ones. */
  #dummyHash: Promise<string> | null = null;
  constructor(deps: LogInDeps) { this.#deps = deps; }

  async execute(raw: unknown, clientIp: string) {
    const input = parseInput(LogInInput, raw);
    const { storage, passwords, sessions, rateLimiter, limits } = this.#deps;
    const byIp = await rateLimiter.hit(`login:ip:${clientIp}`, limits.perIp, WINDOW_SECONDS);
    const byEmail = await rateLimiter.hit(`login:email:${input.email}`, limits.perEmail, WINDOW_SECONDS);
    const blocked = [byIp, byEmail].find((verdict) => !verdict.allowed);
    if (blocked) {
      throw new AppError('RATE_LIMITED', 'Too many login attempts; try again later', { retryAfterSeconds: blocked.retryAfterSeconds });
    }

    const user = await storage.users.findByEmail(input.email);
    this.#dummyHash ??= passwords.hash('nkra-timing-equaliser-password');
    const valid = await passwords.verify(user?.passwordHash ?? (await this.#dummyHash), input.password);
    if (!user || !valid) throw new AppError('INVALID_CREDENTIALS', 'Email or password is incorrect');

    const session = await sessions.issue({ userId: user.id }, this.#deps.sessionTtlSeconds);
    return {
      token: session.token,
      expiresAt: session.expiresAt.toISOString(),
      user: toUserProfile(user),
      organizations: await listUserOrganizations(storage, user.id),
    };
  }
}
