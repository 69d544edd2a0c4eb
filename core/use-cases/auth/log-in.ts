import * as v from 'valibot';
import { AppError } from '../../errors.ts';
import { fields, parseInput } from '../../validation.ts';
import { toUserProfile } from '../../domain/user.ts';
import type { Clock } from '../../ports/clock.ts';
import type { PasswordHasher } from '../../ports/password-hasher.ts';
import type { RateLimiter } from '../../ports/rate-limiter.ts';
import type { Secrets } from '../../ports/secrets.ts';
import type { SessionTokens } from '../../ports/session-tokens.ts';
import type { Storage } from '../../ports/storage.ts';
import { listUserOrganizations } from './list-user-organizations.ts';
import { assertPasswordAllowed } from '../sso/sso-support.ts';
import { signInGate } from '../two-factor/two-factor-support.ts';
import { addressDigest, deviceDigest, LOGIN_WINDOW_SECONDS, loginThrottleKeys, rememberLoginClient } from './login-clients.ts';

export const LogInInput = v.object({
  email: fields.email(),
  password: v.pipe(v.string('must be a string'), v.minLength(1, 'is required'), v.maxLength(1024, 'is too long')),
  /** The `deviceToken` an earlier successful login on this device answered; optional, ignored when unknown. */
  deviceToken: v.optional(v.pipe(v.string('must be a string'), v.maxLength(256, 'is too long'))),
});

export interface LogInDeps {
  storage: Storage;
  passwords: PasswordHasher;
  sessions: SessionTokens;
  rateLimiter: RateLimiter;
  secrets: Secrets;
  clock: Clock;
  sessionTtlSeconds: number;
  /**
   * Failed attempts allowed in a 15-minute window: `perEmail` for one account from one client IP,
   * `perIp` from one client IP over every account. One account over every IP gets ACCOUNT_FACTOR x perEmail.
   */
  limits: { perEmail: number; perIp: number };
  /** Two-factor sign-in (ADR 0038): how long the second step may take; whether platform administrators must use it. */
  twoFactor?: { challengeTtlSeconds: number; requiredForPlatformAdmins: boolean };
}

/** Failures on one account from every client IP together, as a multiple of the per-(account, IP) limit. */
const ACCOUNT_FACTOR = 10;
/** A device or address stays known this long after its last successful login. */
const KNOWN_CLIENT_DAYS = 90;
const DEVICE_TOKEN = /^[A-Za-z0-9_-]{32,256}$/;

/**
 * Exchanges email and password for a session token, a device token and the user's organizations, or, for a user
 * with two-factor or required to enrol, for `{ twoFactor: { status, challengeToken, expiresAt, methods } }` only
 * (docs/security.md, "Two-factor sign-in"). Errors:
 * INVALID_CREDENTIALS (same message for unknown email and wrong password), RATE_LIMITED (retryAfterSeconds),
 * SSO_REQUIRED (the email's domain is verified by an organization with "SSO only"; never for platform administrators).
 *
 * Brute force is throttled without letting anyone lock the real owner out (OWASP authentication
 * guidance; docs/permissions.md, "Login throttling"): only failed attempts count; the tight limit is per
 * account and client IP together; a per-IP limit across accounts stops credential stuffing; a looser
 * per-account limit across every IP slows a distributed guess, but does not apply to a client that proved
 * control before: a device holding the token of an earlier successful login, or an address an earlier
 * successful login came from. A known device has its own failure limit, so a stolen token guesses no faster.
 */
export class LogIn {
  readonly #deps: LogInDeps;
  /** A real hash verified for unknown emails, so they cost the same time as known ones. */
  #dummyHash: Promise<string> | null = null;
  constructor(deps: LogInDeps) { this.#deps = deps; }

  async execute(raw: unknown, clientIp: string) {
    const input = parseInput(LogInInput, raw);
    const { storage, passwords, sessions, rateLimiter, secrets, clock, limits } = this.#deps;
    const user = await storage.users.findByEmail(input.email);
    const presented = input.deviceToken && DEVICE_TOKEN.test(input.deviceToken) ? input.deviceToken : null;
    const deviceHash = presented ? deviceDigest(secrets, presented) : null;
    const addressHash = addressDigest(secrets, clientIp);
    const since = new Date(clock.now().getTime() - KNOWN_CLIENT_DAYS * 86_400_000);
    const known = user ? await storage.knownLoginClients.findKnown(user.id, deviceHash ? [deviceHash, addressHash] : [addressHash], since) : [];

    const counters = [
      { key: loginThrottleKeys.pair(input.email, clientIp), limit: limits.perEmail, enforced: true },
      { key: loginThrottleKeys.ip(clientIp), limit: limits.perIp, enforced: true },
      // Counted for everyone, enforced only on clients never seen logging in: a distributed guess cannot lock the owner out.
      { key: loginThrottleKeys.account(input.email), limit: limits.perEmail * ACCOUNT_FACTOR, enforced: known.length === 0 },
      ...(deviceHash && known.includes(deviceHash) ? [{ key: loginThrottleKeys.device(deviceHash), limit: limits.perEmail, enforced: true }] : []),
    ];
    const verdicts = await Promise.all(counters.filter((c) => c.enforced).map((c) => rateLimiter.check(c.key, c.limit, LOGIN_WINDOW_SECONDS)));
    const blocked = verdicts.filter((verdict) => !verdict.allowed).sort((a, b) => b.retryAfterSeconds - a.retryAfterSeconds)[0];
    if (blocked) {
      const minutes = Math.ceil(blocked.retryAfterSeconds / 60);
      throw new AppError('RATE_LIMITED', `Too many failed login attempts; try again in ${minutes} minute${minutes === 1 ? '' : 's'}`, { retryAfterSeconds: blocked.retryAfterSeconds });
    }

    this.#dummyHash ??= passwords.hash('nkra-timing-equaliser-password');
    const valid = await passwords.verify(user?.passwordHash ?? (await this.#dummyHash), input.password);
    if (!user || !valid) {
      await Promise.all(counters.map((c) => rateLimiter.hit(c.key, c.limit, LOGIN_WINDOW_SECONDS)));
      throw new AppError('INVALID_CREDENTIALS', 'Email or password is incorrect');
    }
    // Only after the password is right, so the refusal tells nothing to someone without it (docs/security.md, "Single sign-on").
    await assertPasswordAllowed(storage, user);

    // A user with two-factor (or required to enrol) gets a challenge, never a session, until the second step.
    const twoFactor = await signInGate({ storage, secrets, clock, settings: this.#deps.twoFactor ?? { challengeTtlSeconds: 300, requiredForPlatformAdmins: false } }, user);
    if (twoFactor) return { twoFactor };

    const deviceToken = await rememberLoginClient({ storage, secrets, clock }, user.id, clientIp, presented);
    const session = await sessions.issue({ userId: user.id }, this.#deps.sessionTtlSeconds);
    return {
      token: session.token,
      expiresAt: session.expiresAt.toISOString(),
      deviceToken,
      user: toUserProfile(user),
      organizations: await listUserOrganizations(storage, user.id),
    };
  }
}
