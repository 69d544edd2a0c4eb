import type { Container } from 'inversify';
import { AuthenticateApiKey } from '../../../core/use-cases/api-keys/authenticate-api-key.ts';
import { AuthenticateSession } from '../../../core/use-cases/auth/authenticate-session.ts';
import { GetProfile } from '../../../core/use-cases/auth/get-profile.ts';
import { LogIn } from '../../../core/use-cases/auth/log-in.ts';
import { LogOut } from '../../../core/use-cases/auth/log-out.ts';
import { RegisterUser } from '../../../core/use-cases/auth/register-user.ts';
import { RequestPasswordReset } from '../../../core/use-cases/auth/request-password-reset.ts';
import { ResetPassword } from '../../../core/use-cases/auth/reset-password.ts';
import { INFRA } from '../../tokens.ts';
import { authRoutes } from '../routes/auth-routes.ts';
import { API } from '../tokens.ts';

export function bindAuthModule(container: Container): void {
  container.bind(API.authenticateSession).toResolvedValue(
    (storage, sessions) => new AuthenticateSession({ storage, sessions }), [INFRA.storage, INFRA.sessions]).inSingletonScope();
  container.bind(API.authenticateApiKey).toResolvedValue(
    (apiKeys, secrets, clock) => new AuthenticateApiKey({ apiKeys, secrets, clock }), [INFRA.apiKeyLookup, INFRA.secrets, INFRA.clock]).inSingletonScope();
  container.bind(API.routes).toResolvedValue(
    (config, storage, passwords, sessions, ids, clock, rateLimiter, secrets, email, logger) => authRoutes({
      registerUser: new RegisterUser({ storage, passwords, sessions, ids, clock, sessionTtlSeconds: config.sessionTtlSeconds, trialCredit: config.trialCredit, rateLimiter, secrets }),
      logIn: new LogIn({
        storage, passwords, sessions, rateLimiter, secrets, clock, sessionTtlSeconds: config.sessionTtlSeconds,
        limits: { perEmail: config.loginLimitPerEmail, perIp: config.loginLimitPerIp },
        twoFactor: { challengeTtlSeconds: config.twoFactor.challengeTtlSeconds, requiredForPlatformAdmins: config.twoFactor.requiredForPlatformAdmins },
      }),
      getProfile: new GetProfile({ storage }),
      requestPasswordReset: new RequestPasswordReset({
        storage, secrets, email, rateLimiter, ids, clock, publicUrl: config.publicUrl, tokenTtlMinutes: config.passwordResetTtlMinutes,
        limits: { perEmail: config.passwordResetLimitPerEmail, perIp: config.passwordResetLimitPerIp },
        onSendFailure: (error, context) => logger.error({ err: error, ...context }, 'password reset email not sent'),
      }),
      resetPassword: new ResetPassword({ storage, secrets, passwords, rateLimiter, clock }),
      logOut: new LogOut({ storage }),
    }),
    [INFRA.config, INFRA.storage, INFRA.passwords, INFRA.sessions, INFRA.ids, INFRA.clock, INFRA.rateLimiter, INFRA.secrets, INFRA.email, INFRA.logger]).inSingletonScope();
}
