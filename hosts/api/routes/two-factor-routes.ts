import { AppError } from '../../../core/errors.ts';
import { CompleteTwoFactorSignInInput, type CompleteTwoFactorSignIn } from '../../../core/use-cases/two-factor/complete-two-factor-sign-in.ts';
import { ConfirmTotpInput, ConfirmTotpSignInInput, type ConfirmTotpEnrolment } from '../../../core/use-cases/two-factor/confirm-totp-enrolment.ts';
import type { DisableTwoFactor } from '../../../core/use-cases/two-factor/disable-two-factor.ts';
import { RegisterPasskeyInput, RegisterPasskeySignInInput, type FinishPasskeyRegistration } from '../../../core/use-cases/two-factor/finish-passkey-registration.ts';
import type { GetTwoFactorStatus } from '../../../core/use-cases/two-factor/get-two-factor-status.ts';
import type { RegenerateRecoveryCodes } from '../../../core/use-cases/two-factor/regenerate-recovery-codes.ts';
import type { RemovePasskey } from '../../../core/use-cases/two-factor/remove-passkey.ts';
import type { GetTwoFactorRequirement } from '../../../core/use-cases/two-factor/get-two-factor-requirement.ts';
import { TwoFactorRequirementInput, type SetTwoFactorRequirement } from '../../../core/use-cases/two-factor/set-two-factor-requirement.ts';
import type { StartPasskeyRegistration } from '../../../core/use-cases/two-factor/start-passkey-registration.ts';
import { PasskeySignInOptionsInput, type StartPasskeySignIn } from '../../../core/use-cases/two-factor/start-passkey-sign-in.ts';
import type { StartTotpEnrolment } from '../../../core/use-cases/two-factor/start-totp-enrolment.ts';
import { ProofInput } from '../../../core/use-cases/two-factor/two-factor-support.ts';
import { ok, requireMember, requireUser, type RequestInput, type RouteDefinition } from '../route.ts';

export interface TwoFactorRouteDeps {
  getStatus: GetTwoFactorStatus;
  startTotp: StartTotpEnrolment;
  confirmTotp: ConfirmTotpEnrolment;
  startPasskey: StartPasskeyRegistration;
  finishPasskey: FinishPasskeyRegistration;
  removePasskey: RemovePasskey;
  regenerateRecoveryCodes: RegenerateRecoveryCodes;
  disable: DisableTwoFactor;
  startPasskeySignIn: StartPasskeySignIn;
  completeSignIn: CompleteTwoFactorSignIn;
  getRequirement: GetTwoFactorRequirement;
  setRequirement: SetTwoFactorRequirement;
}

/** The user's own id; an impersonation session never changes the administrator's factors. */
function self(input: RequestInput): { userId: string } {
  const user = requireUser(input);
  if (user.impersonatorId) throw new AppError('FORBIDDEN', 'Two-factor settings cannot be changed while impersonating');
  return { userId: user.userId };
}

/** The challenge token of a sign-in held at the enrolment step (the use case validates it). */
function signInEnroller(body: unknown): { challengeToken: string } {
  const token = (body as { challengeToken?: unknown } | null)?.challengeToken;
  if (typeof token !== 'string' || token.length === 0) {
    throw new AppError('VALIDATION_ERROR', 'challengeToken is required', { fieldErrors: { challengeToken: ['is required'] }, formErrors: [] });
  }
  return { challengeToken: token };
}

const SIGN_IN = 'the normal login answer (token, expiresAt, deviceToken, user, organizations)';
const CHALLENGE_ERRORS = { 400: 'VALIDATION_ERROR', 401: 'INVALID_CHALLENGE_TOKEN (unknown, expired, used or of the other kind)' };

/** Two-factor sign-in (docs/security.md, "Two-factor sign-in"; ADR 0038). */
export function twoFactorRoutes(deps: TwoFactorRouteDeps): RouteDefinition[] {
  return [
    // The second step of a sign-in, with the challenge token the password step answered.
    {
      method: 'POST', path: '/auth/login/two-factor', tag: 'Auth', summary: 'Complete a sign-in with a TOTP code, a recovery code or a passkey assertion',
      auth: 'none', body: CompleteTwoFactorSignInInput,
      responses: { 200: SIGN_IN, 400: 'VALIDATION_ERROR', 401: 'INVALID_SECOND_FACTOR or INVALID_CHALLENGE_TOKEN', 403: 'TWO_FACTOR_ENROLMENT_REQUIRED (an enrolment token)', 429: 'RATE_LIMITED' },
      handler: async ({ body, ip }) => ok(await deps.completeSignIn.execute(body, ip)),
    },
    {
      method: 'POST', path: '/auth/login/two-factor/passkey-options', tag: 'Auth', summary: 'WebAuthn request options for the second step of a sign-in',
      auth: 'none', body: PasskeySignInOptionsInput,
      responses: { 200: '`{ options }` for navigator.credentials.get', ...CHALLENGE_ERRORS, 403: 'TWO_FACTOR_ENROLMENT_REQUIRED', 404: 'NOT_FOUND (no passkey registered)' },
      handler: async ({ body }) => ok(await deps.startPasskeySignIn.execute(body)),
    },
    // Enrolment while signing in (an organization or the platform requires two-factor; the user has none).
    {
      method: 'POST', path: '/auth/login/two-factor/enrol/totp', tag: 'Auth', summary: 'Start enrolling an authenticator app during a sign-in that requires it',
      auth: 'none', body: PasskeySignInOptionsInput,
      responses: { 200: '`{ secret, otpauthUri }`, shown this once', ...CHALLENGE_ERRORS },
      handler: async ({ body }) => ok(await deps.startTotp.execute(signInEnroller(body))),
    },
    {
      method: 'POST', path: '/auth/login/two-factor/enrol/totp/confirm', tag: 'Auth', summary: 'Confirm the authenticator app and finish the sign-in',
      auth: 'none', body: ConfirmTotpSignInInput,
      responses: { 200: `\`recoveryCodes\` (shown once) and ${SIGN_IN}`, 400: 'VALIDATION_ERROR', 401: 'INVALID_SECOND_FACTOR or INVALID_CHALLENGE_TOKEN', 429: 'RATE_LIMITED' },
      handler: async ({ body, ip }) => ok(await deps.confirmTotp.execute(signInEnroller(body), body, ip)),
    },
    {
      method: 'POST', path: '/auth/login/two-factor/enrol/passkey-options', tag: 'Auth', summary: 'WebAuthn creation options to register a passkey during a sign-in that requires it',
      auth: 'none', body: PasskeySignInOptionsInput,
      responses: { 200: '`{ options }` for navigator.credentials.create', ...CHALLENGE_ERRORS },
      handler: async ({ body }) => ok(await deps.startPasskey.execute(signInEnroller(body))),
    },
    {
      method: 'POST', path: '/auth/login/two-factor/enrol/passkey', tag: 'Auth', summary: 'Register the passkey and finish the sign-in',
      auth: 'none', body: RegisterPasskeySignInInput,
      responses: { 200: `\`passkey\`, \`recoveryCodes\` (shown once) and ${SIGN_IN}`, 400: 'VALIDATION_ERROR', 401: 'INVALID_SECOND_FACTOR or INVALID_CHALLENGE_TOKEN', 409: 'CONFLICT' },
      handler: async ({ body, ip }) => ok(await deps.finishPasskey.execute(signInEnroller(body), body, ip)),
    },
    // The signed-in user's own factors.
    {
      method: 'GET', path: '/auth/two-factor', tag: 'Auth', summary: 'The signed-in user\'s two-factor status (never a secret)',
      auth: 'user', responses: { 200: '`{ enabled, totp, passkeys, recoveryCodesLeft, required }`', 401: 'UNAUTHORIZED' },
      handler: async (input) => ok(await deps.getStatus.execute(requireUser(input).userId)),
    },
    {
      method: 'POST', path: '/auth/two-factor/totp', tag: 'Auth', summary: 'Start enrolling an authenticator app: the secret and otpauth URI, shown this once',
      auth: 'user', responses: { 200: '`{ secret, otpauthUri }`', 401: 'UNAUTHORIZED', 403: 'FORBIDDEN (impersonating)', 409: 'CONFLICT (already set up)' },
      handler: async (input) => ok(await deps.startTotp.execute(self(input))),
    },
    {
      method: 'POST', path: '/auth/two-factor/totp/confirm', tag: 'Auth', summary: 'Confirm the authenticator app with a current code',
      auth: 'user', body: ConfirmTotpInput,
      responses: { 200: '`{ enabled: true, recoveryCodes }` (codes with the first factor only, shown once)', 400: 'VALIDATION_ERROR', 401: 'INVALID_SECOND_FACTOR', 429: 'RATE_LIMITED' },
      handler: async (input) => ok(await deps.confirmTotp.execute(self(input), input.body, input.ip)),
    },
    {
      method: 'POST', path: '/auth/two-factor/passkeys/options', tag: 'Auth', summary: 'WebAuthn creation options to register a passkey',
      auth: 'user', responses: { 200: '`{ options }`', 401: 'UNAUTHORIZED', 403: 'FORBIDDEN (impersonating)', 422: 'LIMIT_REACHED' },
      handler: async (input) => ok(await deps.startPasskey.execute(self(input))),
    },
    {
      method: 'POST', path: '/auth/two-factor/passkeys', tag: 'Auth', summary: 'Register a passkey with the browser\'s answer',
      auth: 'user', body: RegisterPasskeyInput,
      responses: { 201: '`{ passkey, recoveryCodes }`', 400: 'VALIDATION_ERROR', 401: 'INVALID_SECOND_FACTOR', 409: 'CONFLICT' },
      handler: async (input) => ok(await deps.finishPasskey.execute(self(input), input.body, input.ip), 201),
    },
    {
      method: 'POST', path: '/auth/two-factor/passkeys/:id/remove', tag: 'Auth', summary: 'Remove a passkey (password or a current code)',
      auth: 'user', body: ProofInput,
      responses: { 200: '`{ removed: true, enabled }`', 400: 'VALIDATION_ERROR', 401: 'INVALID_CREDENTIALS or INVALID_SECOND_FACTOR', 404: 'NOT_FOUND', 429: 'RATE_LIMITED' },
      handler: async (input) => ok(await deps.removePasskey.execute(self(input).userId, input.params['id'] ?? '', input.body)),
    },
    {
      method: 'POST', path: '/auth/two-factor/recovery-codes', tag: 'Auth', summary: 'Replace the recovery codes (password or a current code); shown this once',
      auth: 'user', body: ProofInput,
      responses: { 200: '`{ recoveryCodes }`', 400: 'VALIDATION_ERROR', 401: 'INVALID_CREDENTIALS or INVALID_SECOND_FACTOR', 409: 'CONFLICT (two-factor is off)', 429: 'RATE_LIMITED' },
      handler: async (input) => ok(await deps.regenerateRecoveryCodes.execute(self(input).userId, input.body)),
    },
    {
      method: 'POST', path: '/auth/two-factor/disable', tag: 'Auth', summary: 'Turn two-factor off (password or a current code)',
      auth: 'user', body: ProofInput,
      responses: { 200: '`{ enabled: false }`', 400: 'VALIDATION_ERROR', 401: 'INVALID_CREDENTIALS or INVALID_SECOND_FACTOR', 429: 'RATE_LIMITED' },
      handler: async (input) => ok(await deps.disable.execute(self(input).userId, input.body)),
    },
    // The organization's requirement.
    {
      method: 'GET', path: '/organizations/current/two-factor', tag: 'Organizations', summary: 'Whether the organization requires two-factor of its members',
      auth: 'tenant', permission: 'organization:read', responses: { 200: '`{ required }`', 401: 'UNAUTHORIZED', 403: 'FORBIDDEN' },
      handler: async (input) => ok(await deps.getRequirement.execute(requireMember(input).organizationId)),
    },
    {
      method: 'PUT', path: '/organizations/current/two-factor', tag: 'Organizations', summary: 'Require two-factor of every member (owners and administrators)',
      auth: 'tenant', permission: 'organization:write', body: TwoFactorRequirementInput,
      responses: { 200: '`{ required }`', 400: 'VALIDATION_ERROR', 401: 'UNAUTHORIZED', 403: 'FORBIDDEN or TWO_FACTOR_ENROLMENT_REQUIRED (enrol yourself first)' },
      handler: async (input) => ok(await deps.setRequirement.execute(requireMember(input), input.body)),
    },
  ];
}
