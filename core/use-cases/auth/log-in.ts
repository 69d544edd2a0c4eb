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
  /**
   * Failed attempts allowed in a 15-minute window: `perEmail` for one account from one client IP,
   * `perIp` from one client IP over every account. One account over every IP gets ACCOUNT_FACTOR x perEmail.
   */
  limits: { perEmail: number; perIp: number };
}

const WINDOW_SECONDS = 15 * 60;
/** Failures on one account from every client IP together, as a multiple of the per-(account, IP) limit. */
const ACCOUNT_FACTOR = 10;

/**
 * Exchanges email and password for a session token and the user's organizations. Errors:
 * INVALID_CREDENTIALS (same message for unknown email and wrong password), RATE_LIMITED.
 *
 * Brute force is throttled without letting anyone lock the real owner out (OWASP authentication
 * guidance; docs/permissions.md): only failed attempts count; the tight limit is per account and client
 * IP together, so someone guessing from elsewhere does not block the owner's own network; a looser
 * per-account limit across every IP slows a distributed guess; and a per-IP limit across accounts stops
 * credential stuffing from one address while successful logins, which never count, keep an office
 * sharing one address signed in.
 */
export class LogIn {
  readonly #deps: LogInDeps;
  /** A real hash verified for unknown emails, so they cost the same time as known ones. */
  #dummyHash: Promise<string> | null = null;
  constructor(deps: LogInDeps) { this.#deps = deps; }

  async execute(raw: unknown, clientIp: string) {
    const input = parseInput(LogInInput, raw);
    const { storage, passwords, sessions, rateLimiter, limits } = this.#deps;
    const counters = [
      { key: `login:fail:pair:${input.email}:${clientIp}`, limit: limits.perEmail },
      { key: `login:fail:email:${input.email}`, limit: limits.perEmail * ACCOUNT_FACTOR },
      { key: `login:fail:ip:${clientIp}`, limit: limits.perIp },
    ];
    const verdicts = await Promise.all(counters.map((c) => rateLimiter.check(c.key, c.limit, WINDOW_SECONDS)));
    const blocked = verdicts.find((verdict) => !verdict.allowed);
    if (blocked) {
      throw new AppError('RATE_LIMITED', 'Too many failed login attempts; try again later', { retryAfterSeconds: blocked.retryAfterSeconds });
    }

    const user = await storage.users.findByEmail(input.email);
    this.#dummyHash ??= passwords.hash('nkra-timing-equaliser-password');
    const valid = await passwords.verify(user?.passwordHash ?? (await this.#dummyHash), input.password);
    if (!user || !valid) {
      await Promise.all(counters.map((c) => rateLimiter.hit(c.key, c.limit, WINDOW_SECONDS)));
      throw new AppError('INVALID_CREDENTIALS', 'Email or password is incorrect');
    }

    const session = await sessions.issue({ userId: user.id }, this.#deps.sessionTtlSeconds);
    return {
      token: session.token,
      expiresAt: session.expiresAt.toISOString(),
      user: toUserProfile(user),
      organizations: await listUserOrganizations(storage, user.id),
    };
  }
}
