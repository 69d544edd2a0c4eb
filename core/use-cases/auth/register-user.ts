import * as v from 'valibot';
import { AppError, fieldError } from '../../errors.ts';
import { fields, parseInput } from '../../validation.ts';
import { newOrganization } from '../../domain/organization.ts';
import { passwordWeakness, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../domain/password-policy.ts';
import { toUserProfile, type User } from '../../domain/user.ts';
import type { Clock } from '../../ports/clock.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import type { PasswordHasher } from '../../ports/password-hasher.ts';
import type { RateLimiter } from '../../ports/rate-limiter.ts';
import type { Secrets } from '../../ports/secrets.ts';
import { rememberLoginClient } from './login-clients.ts';
import { assertPasswordAllowed } from '../sso/sso-support.ts';
import { TRIAL_CREDIT_REFERENCE, type TrialCreditPolicy } from '../../domain/wallet.ts';
import type { SessionTokens } from '../../ports/session-tokens.ts';
import type { Storage } from '../../ports/storage.ts';

export const RegisterUserInput = v.object({
  email: fields.email(),
  password: v.pipe(v.string('must be a string'), v.minLength(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`),
    v.maxLength(PASSWORD_MAX_LENGTH, `must be at most ${PASSWORD_MAX_LENGTH} characters`)),
  firstName: fields.requiredText(100),
  lastName: fields.requiredText(100),
  organizationName: v.optional(fields.requiredText(200)),
});
export type RegisterUserInput = v.InferInput<typeof RegisterUserInput>;

export interface RegisterUserDeps {
  storage: Storage;
  passwords: PasswordHasher;
  sessions: SessionTokens;
  ids: IdGenerator;
  clock: Clock;
  sessionTtlSeconds: number;
  /** The credit a new organization starts with; absent or amount 0: none. Needs `rateLimiter` for its daily cap. */
  trialCredit?: TrialCreditPolicy | undefined;
  rateLimiter?: RateLimiter | undefined;
  /** With it (and the client address), the registering browser and address become known login clients (docs/permissions.md). */
  secrets?: Secrets | undefined;
}

const DAY_SECONDS = 86_400;

/**
 * Creates a user account; with `organizationName`, also an organization, its GHS wallet and the user's
 * TENANT_OWNER membership, all in one transaction. The wallet starts with the trial credit (one
 * TRIAL_CREDIT ledger entry) while fewer than `trialCredit.perDay` organizations got one in the last
 * 24 hours, otherwise at 0. Returns a session token.
 */
export class RegisterUser {
  readonly #deps: RegisterUserDeps;
  constructor(deps: RegisterUserDeps) { this.#deps = deps; }

  async execute(raw: unknown, clientIp?: string) {
    const input = parseInput(RegisterUserInput, raw);
    const weakness = passwordWeakness(input.password);
    if (weakness) throw fieldError('password', `password ${weakness}`);
    const { storage, passwords, sessions, ids, clock } = this.#deps;

    if (await storage.users.findByEmail(input.email)) throw emailExists();
    // A password account in an "SSO only" domain could never sign in, and would wait for the real owner's SSO membership.
    await assertPasswordAllowed(storage, { email: input.email, platformRole: null });
    const now = clock.now();
    const user: User = {
      id: ids.next(), email: input.email, passwordHash: await passwords.hash(input.password),
      firstName: input.firstName, lastName: input.lastName, platformRole: null, createdAt: now,
    };
    const organization = input.organizationName ? newOrganization(ids.next(), input.organizationName, now) : null;
    const trial = organization ? await this.#trialCredit() : 0;

    await storage.transaction(async (tx) => {
      try {
        await tx.users.insert(user);
      } catch (error) {
        if (error instanceof AppError && error.code === 'CONFLICT') throw emailExists();
        throw error;
      }
      if (!organization) return;
      await tx.organizations.insert(organization);
      await tx.wallets.create(organization.id, now);
      if (trial > 0) {
        await tx.wallets.update(organization.id, () => ({ amount: trial, kind: 'TRIAL_CREDIT', reference: TRIAL_CREDIT_REFERENCE, description: 'Trial credit' }), now);
      }
      await tx.memberships.insert({ id: ids.next(), organizationId: organization.id, userId: user.id, role: 'TENANT_OWNER', createdAt: now });
    });

    // Choosing the password proves control as a login does: this browser and address are known from the start.
    const secrets = this.#deps.secrets;
    const deviceToken = secrets && clientIp !== undefined ? await rememberLoginClient({ storage, secrets, clock }, user.id, clientIp, null) : undefined;
    const session = await sessions.issue({ userId: user.id }, this.#deps.sessionTtlSeconds);
    return {
      token: session.token,
      expiresAt: session.expiresAt.toISOString(),
      ...(deviceToken ? { deviceToken } : {}),
      user: toUserProfile(user),
      organizations: organization ? [{ id: organization.id, name: organization.name, role: 'TENANT_OWNER' as const }] : [],
    };
  }

  /** Pesewas of trial credit for a new organization: 0 when disabled or when the last 24 hours' allowance is used up. */
  async #trialCredit(): Promise<number> {
    const { trialCredit, rateLimiter } = this.#deps;
    if (!trialCredit || trialCredit.amount <= 0 || trialCredit.perDay <= 0 || !rateLimiter) return 0;
    const verdict = await rateLimiter.hit('trial-credit', trialCredit.perDay, DAY_SECONDS);
    return verdict.allowed ? trialCredit.amount : 0;
  }
}

function emailExists(): AppError {
  return new AppError('EMAIL_EXISTS', 'An account with this email already exists');
}
