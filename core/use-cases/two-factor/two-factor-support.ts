import * as v from 'valibot';
import { AppError } from '../../errors.ts';
import { formatRecoveryCode, normalizeRecoveryCode, normalizeTotpCode, RECOVERY_CODE_COUNT, type ChallengeKind, type SignInChallenge } from '../../domain/two-factor.ts';
import { toUserProfile } from '../../domain/user.ts';
import type { Clock } from '../../ports/clock.ts';
import type { CredentialCipher } from '../../ports/credential-cipher.ts';
import type { PasskeyVerifier } from '../../ports/passkey-verifier.ts';
import type { PasswordHasher } from '../../ports/password-hasher.ts';
import type { RateLimiter } from '../../ports/rate-limiter.ts';
import type { Secrets } from '../../ports/secrets.ts';
import type { SessionTokens } from '../../ports/session-tokens.ts';
import type { Storage } from '../../ports/storage.ts';
import type { TotpAuthenticator } from '../../ports/totp-authenticator.ts';
import { listUserOrganizations } from '../auth/list-user-organizations.ts';
import { LOGIN_WINDOW_SECONDS, rememberLoginClient } from '../auth/login-clients.ts';

/** Shared by the two-factor use cases (docs/security.md, "Two-factor sign-in"; ADR 0038). */
export interface TwoFactorDeps {
  storage: Storage;
  secrets: Secrets;
  clock: Clock;
  /** Seals TOTP secrets at rest (ENCRYPTION_KEY). */
  cipher: CredentialCipher;
  totp: TotpAuthenticator;
  passkeys: PasskeyVerifier;
  passwords: PasswordHasher;
  sessions: SessionTokens;
  rateLimiter: RateLimiter;
  settings: {
    issuer: string;
    challengeTtlSeconds: number;
    sessionTtlSeconds: number;
    /** Failed second-step attempts (codes, recovery codes, passkeys, proofs) per user in the login window. */
    attemptLimit: number;
    requiredForPlatformAdmins: boolean;
  };
}

/** Who is enrolling: a signed-in user, or a sign-in held at the enrolment step (its challenge token). */
export type Enroller = { userId: string } | { challengeToken: string };

export const ChallengeTokenField = v.pipe(v.string('must be a string'), v.minLength(1, 'is required'), v.maxLength(4096, 'is too long'));
export const CodeField = v.pipe(v.string('must be a string'), v.minLength(1, 'is required'), v.maxLength(64, 'is too long'));
/** A password or a current code (TOTP or recovery code): what turning two-factor off or changing it takes. */
export const ProofInput = v.object({
  password: v.optional(v.pipe(v.string('must be a string'), v.maxLength(1024, 'is too long'))),
  code: v.optional(CodeField),
});

const challengeId = (secrets: Secrets, token: string) => secrets.sha256(`sign-in-challenge:${token}`);
export const registrationChallengeId = (secrets: Secrets, userId: string) => secrets.sha256(`passkey-registration:${userId}`);
const recoveryDigest = (secrets: Secrets, userId: string, code: string) => secrets.sha256(`recovery-code:${userId}:${normalizeRecoveryCode(code)}`);
const attemptKey = (userId: string) => `login:fail:second-factor:${userId}`;

/** Opens a challenge: a short-lived single-use token whose digest alone is stored. */
export async function createChallenge(deps: Pick<TwoFactorDeps, 'storage' | 'secrets' | 'clock'> & { settings: { challengeTtlSeconds: number } }, userId: string, kind: 'second_factor' | 'enrolment') {
  const token = deps.secrets.randomToken(32);
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + deps.settings.challengeTtlSeconds * 1000);
  await deps.storage.signInChallenges.save({ id: challengeId(deps.secrets, token), userId, kind, webauthnChallenge: null, expiresAt, createdAt: now });
  return { challengeToken: token, expiresAt: expiresAt.toISOString() };
}

/** The live challenge of a token, of the expected kind. Errors: INVALID_CHALLENGE_TOKEN; TWO_FACTOR_ENROLMENT_REQUIRED for an enrolment token at the second step. */
export async function openChallenge(deps: Pick<TwoFactorDeps, 'storage' | 'secrets' | 'clock'>, token: string, kind: ChallengeKind): Promise<SignInChallenge> {
  const challenge = /^[A-Za-z0-9_-]{20,256}$/.test(token) ? await deps.storage.signInChallenges.find(challengeId(deps.secrets, token)) : null;
  if (!challenge || challenge.kind === 'passkey_registration' || challenge.expiresAt.getTime() <= deps.clock.now().getTime()) {
    throw new AppError('INVALID_CHALLENGE_TOKEN', 'This sign-in has expired or is not valid; sign in again with your password');
  }
  if (challenge.kind !== kind) {
    if (challenge.kind === 'enrolment') throw new AppError('TWO_FACTOR_ENROLMENT_REQUIRED', 'Two-factor sign-in is required: enrol an authenticator app or a passkey first');
    throw new AppError('INVALID_CHALLENGE_TOKEN', 'This sign-in is waiting for your second factor, not an enrolment');
  }
  return challenge;
}

/** What the password step of a sign-in needs to know about two-factor. */
export interface SignInGateDeps {
  storage: Storage;
  secrets: Secrets;
  clock: Clock;
  settings: { challengeTtlSeconds: number; requiredForPlatformAdmins: boolean };
}

/**
 * After a correct password: null when the user may have a session at once; otherwise the second step the sign-in
 * waits for (`required`: prove a factor; `enrolment_required`: an organization or the platform requires two-factor
 * and the user has none) with its challenge token. ADR 0038.
 */
export async function signInGate(deps: SignInGateDeps, user: { id: string; platformRole: string | null }) {
  const [totp, passkeys] = await Promise.all([deps.storage.secondFactors.findTotp(user.id), deps.storage.secondFactors.listPasskeys(user.id)]);
  if (totp?.confirmedAt || passkeys.length > 0) {
    const methods = [...(totp?.confirmedAt ? ['totp'] : []), ...(passkeys.length > 0 ? ['passkey'] : []), 'recovery_code'];
    return { status: 'required' as const, methods, ...(await createChallenge(deps, user.id, 'second_factor')) };
  }
  const byPlatform = deps.settings.requiredForPlatformAdmins && user.platformRole === 'PLATFORM_SUPER_ADMIN';
  if (!byPlatform && !(await deps.storage.twoFactorPolicies.requiredForUser(user.id))) return null;
  return { status: 'enrolment_required' as const, methods: ['totp', 'passkey'], reason: byPlatform ? 'platform' : 'organization', ...(await createChallenge(deps, user.id, 'enrolment')) };
}

/** The user behind an enroller; for a sign-in, its live enrolment challenge too. */
export async function resolveEnroller(deps: TwoFactorDeps, enroller: Enroller): Promise<{ userId: string; challenge: SignInChallenge | null }> {
  if ('userId' in enroller) return { userId: enroller.userId, challenge: null };
  const challenge = await openChallenge(deps, enroller.challengeToken, 'enrolment');
  return { userId: challenge.userId, challenge };
}

/** Ends a sign-in: consumes its challenge (once, even under concurrency) and answers what a login without two-factor answers. */
export async function completeSignIn(deps: TwoFactorDeps, challenge: SignInChallenge, clientIp: string, presentedDeviceToken: string | undefined) {
  if (!(await deps.storage.signInChallenges.consume(challenge.id))) throw new AppError('INVALID_CHALLENGE_TOKEN', 'This sign-in was already completed; sign in again');
  const user = await deps.storage.users.findById(challenge.userId);
  if (!user) throw new AppError('INVALID_CHALLENGE_TOKEN', 'This sign-in is no longer valid');
  await deps.rateLimiter.clear(attemptKey(user.id), LOGIN_WINDOW_SECONDS);
  const presented = presentedDeviceToken && /^[A-Za-z0-9_-]{32,256}$/.test(presentedDeviceToken) ? presentedDeviceToken : null;
  const deviceToken = await rememberLoginClient(deps, user.id, clientIp, presented);
  const session = await deps.sessions.issue({ userId: user.id }, deps.settings.sessionTtlSeconds);
  return {
    token: session.token, expiresAt: session.expiresAt.toISOString(), deviceToken,
    user: toUserProfile(user), organizations: await listUserOrganizations(deps.storage, user.id),
  };
}

/** Refuses a locked-out user before any check (RATE_LIMITED); `failed` counts a failure and throws the given error. */
export async function attemptGuard(deps: Pick<TwoFactorDeps, 'rateLimiter' | 'settings'>, userId: string) {
  const verdict = await deps.rateLimiter.check(attemptKey(userId), deps.settings.attemptLimit, LOGIN_WINDOW_SECONDS);
  if (!verdict.allowed) {
    const minutes = Math.ceil(verdict.retryAfterSeconds / 60);
    throw new AppError('RATE_LIMITED', `Too many failed two-factor attempts; try again in ${minutes} minute${minutes === 1 ? '' : 's'}`, { retryAfterSeconds: verdict.retryAfterSeconds });
  }
  return {
    failed: async (error: AppError): Promise<never> => {
      await deps.rateLimiter.hit(attemptKey(userId), deps.settings.attemptLimit, LOGIN_WINDOW_SECONDS);
      throw error;
    },
  };
}

/** Checks a TOTP code of the user's confirmed authenticator and spends its time step (replay guard). Null when not valid. */
export async function spendTotpCode(deps: TwoFactorDeps, userId: string, code: string): Promise<boolean> {
  const digits = normalizeTotpCode(code);
  const totp = await deps.storage.secondFactors.findTotp(userId);
  if (!digits || !totp?.confirmedAt) return false;
  const step = await deps.totp.verify(deps.cipher.decrypt(totp.sealedSecret), digits, deps.clock.now(), totp.lastUsedStep);
  return step !== null && (await deps.storage.secondFactors.useTotpStep(userId, step));
}

/** Spends one unused recovery code of the user. */
export function spendRecoveryCode(deps: TwoFactorDeps, userId: string, code: string): Promise<boolean> {
  return deps.storage.secondFactors.useRecoveryCode(userId, recoveryDigest(deps.secrets, userId, code), deps.clock.now());
}

/** A fresh set of recovery codes (shown once); only their digests are stored, replacing the old set. */
export async function issueRecoveryCodes(deps: TwoFactorDeps, userId: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => formatRecoveryCode(deps.secrets.randomToken(16)));
  await deps.storage.secondFactors.replaceRecoveryCodes(userId, codes.map((c) => recoveryDigest(deps.secrets, userId, c)), deps.clock.now());
  return codes;
}

/** True when the user has a confirmed authenticator or a passkey. */
export async function hasSecondFactor(storage: Storage, userId: string): Promise<boolean> {
  const [totp, passkeys] = await Promise.all([storage.secondFactors.findTotp(userId), storage.secondFactors.listPasskeys(userId)]);
  return Boolean(totp?.confirmedAt) || passkeys.length > 0;
}

/**
 * The proof that changing or removing factors takes: the password, or a current TOTP or recovery code.
 * Errors: VALIDATION_ERROR (neither given), INVALID_CREDENTIALS (wrong password), INVALID_SECOND_FACTOR (wrong code), RATE_LIMITED.
 */
export async function requireProof(deps: TwoFactorDeps, userId: string, proof: v.InferOutput<typeof ProofInput>): Promise<void> {
  if (!proof.password && !proof.code) throw new AppError('VALIDATION_ERROR', 'Give your password or a current code', { fieldErrors: { password: ['password or code is required'] }, formErrors: [] });
  const guard = await attemptGuard(deps, userId);
  if (proof.password) {
    const user = await deps.storage.users.findById(userId);
    if (!user || !(await deps.passwords.verify(user.passwordHash, proof.password))) await guard.failed(new AppError('INVALID_CREDENTIALS', 'The password is incorrect'));
    return;
  }
  const code = proof.code!;
  const ok = normalizeTotpCode(code) ? await spendTotpCode(deps, userId, code) : await spendRecoveryCode(deps, userId, code);
  if (!ok) await guard.failed(new AppError('INVALID_SECOND_FACTOR', 'The code is wrong or was already used'));
}
