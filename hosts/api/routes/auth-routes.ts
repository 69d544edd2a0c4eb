import { LogInInput, type LogIn } from '../../../core/use-cases/auth/log-in.ts';
import { RegisterUserInput, type RegisterUser } from '../../../core/use-cases/auth/register-user.ts';
import { RequestPasswordResetInput, type RequestPasswordReset } from '../../../core/use-cases/auth/request-password-reset.ts';
import { ResetPasswordInput, type ResetPassword } from '../../../core/use-cases/auth/reset-password.ts';
import type { GetProfile } from '../../../core/use-cases/auth/get-profile.ts';
import type { LogOut } from '../../../core/use-cases/auth/log-out.ts';
import { ok, requireUser, type RouteDefinition } from '../route.ts';

export interface AuthRouteDeps {
  registerUser: RegisterUser;
  logIn: LogIn;
  getProfile: GetProfile;
  requestPasswordReset: RequestPasswordReset;
  resetPassword: ResetPassword;
  logOut: LogOut;
}

export function authRoutes(deps: AuthRouteDeps): RouteDefinition[] {
  return [
    {
      method: 'POST', path: '/auth/register', tag: 'Auth', summary: 'Register a user (optionally with an organization and its wallet)',
      auth: 'none', body: RegisterUserInput,
      responses: { 201: 'Registered; a session token and a device token (send it with later logins)', 400: 'VALIDATION_ERROR', 409: 'EMAIL_EXISTS' },
      handler: async ({ body, ip }) => ok(await deps.registerUser.execute(body, ip), 201),
    },
    {
      method: 'POST', path: '/auth/login', tag: 'Auth', summary: 'Log in with email and password',
      auth: 'none', body: LogInInput,
      responses: { 200: 'A session token, a device token (send it with later logins) and the user\'s organizations; for a user with two-factor (or required to enrol) only `{ twoFactor: { status, challengeToken, expiresAt, methods } }` (POST /auth/login/two-factor)', 400: 'VALIDATION_ERROR', 401: 'INVALID_CREDENTIALS', 429: 'RATE_LIMITED' },
      handler: async ({ body, ip }) => ok(await deps.logIn.execute(body, ip)),
    },
    {
      method: 'GET', path: '/auth/me', tag: 'Auth', summary: 'The signed-in user with organization memberships',
      auth: 'user', responses: { 200: 'User profile', 401: 'UNAUTHORIZED' },
      handler: async (input) => {
        const user = requireUser(input);
        return ok(await deps.getProfile.execute(user.userId, user.impersonatorId));
      },
    },
    {
      method: 'POST', path: '/auth/logout', tag: 'Auth', summary: 'End this session: its token is refused from now on (other sessions stay signed in)',
      auth: 'user', responses: { 200: '`{ loggedOut: true }`', 401: 'UNAUTHORIZED (no, bad or already ended session)' },
      handler: async (input) => ok(await deps.logOut.execute(requireUser(input).session)),
    },
    {
      method: 'POST', path: '/auth/forgot-password', tag: 'Auth', summary: 'Email a single-use password reset link (same answer whether or not the account exists)',
      auth: 'none', body: RequestPasswordResetInput,
      responses: { 200: 'A success message, always', 400: 'EMAIL_REQUIRED or VALIDATION_ERROR', 429: 'RATE_LIMITED (per client IP)' },
      handler: async ({ body, ip }) => ok(await deps.requestPasswordReset.execute(body, ip)),
    },
    {
      method: 'POST', path: '/auth/reset-password', tag: 'Auth', summary: 'Set a new password with an emailed reset token',
      auth: 'none', body: ResetPasswordInput,
      responses: { 200: 'Password updated', 400: 'VALIDATION_ERROR, WEAK_PASSWORD or INVALID_RESET_TOKEN (unknown, used or expired)' },
      handler: async ({ body, ip }) => ok(await deps.resetPassword.execute(body, ip)),
    },
  ];
}
