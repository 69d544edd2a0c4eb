import type { Container } from 'inversify';
import { AesGcmCredentialCipher } from '../../../adapters/security/aes-gcm-credential-cipher.ts';
import { OtplibTotpAuthenticator } from '../../../adapters/security/otplib-totp-authenticator.ts';
import { SimpleWebAuthnPasskeyVerifier } from '../../../adapters/security/simple-webauthn-passkey-verifier.ts';
import { CompleteTwoFactorSignIn } from '../../../core/use-cases/two-factor/complete-two-factor-sign-in.ts';
import { ConfirmTotpEnrolment } from '../../../core/use-cases/two-factor/confirm-totp-enrolment.ts';
import { DisableTwoFactor } from '../../../core/use-cases/two-factor/disable-two-factor.ts';
import { FinishPasskeyRegistration } from '../../../core/use-cases/two-factor/finish-passkey-registration.ts';
import { GetTwoFactorStatus } from '../../../core/use-cases/two-factor/get-two-factor-status.ts';
import { RegenerateRecoveryCodes } from '../../../core/use-cases/two-factor/regenerate-recovery-codes.ts';
import { RemovePasskey } from '../../../core/use-cases/two-factor/remove-passkey.ts';
import { GetTwoFactorRequirement } from '../../../core/use-cases/two-factor/get-two-factor-requirement.ts';
import { SetTwoFactorRequirement } from '../../../core/use-cases/two-factor/set-two-factor-requirement.ts';
import { StartPasskeyRegistration } from '../../../core/use-cases/two-factor/start-passkey-registration.ts';
import { StartPasskeySignIn } from '../../../core/use-cases/two-factor/start-passkey-sign-in.ts';
import { StartTotpEnrolment } from '../../../core/use-cases/two-factor/start-totp-enrolment.ts';
import type { TwoFactorDeps } from '../../../core/use-cases/two-factor/two-factor-support.ts';
import { INFRA } from '../../tokens.ts';
import { twoFactorRoutes } from '../routes/two-factor-routes.ts';
import { API } from '../tokens.ts';

/** Two-factor sign-in (docs/security.md; ADR 0038): TOTP on otplib, passkeys on @simplewebauthn/server, secrets sealed with ENCRYPTION_KEY. */
export function bindTwoFactorModule(container: Container): void {
  container.bind(API.routes).toResolvedValue(
    (config, storage, secrets, clock, passwords, sessions, rateLimiter) => {
      const deps: TwoFactorDeps = {
        storage, secrets, clock, passwords, sessions, rateLimiter,
        cipher: new AesGcmCredentialCipher(config.encryptionKey),
        totp: new OtplibTotpAuthenticator(),
        passkeys: new SimpleWebAuthnPasskeyVerifier({ id: config.twoFactor.rpId, name: config.twoFactor.rpName, origins: config.twoFactor.origins }),
        settings: {
          issuer: config.twoFactor.issuer, challengeTtlSeconds: config.twoFactor.challengeTtlSeconds, sessionTtlSeconds: config.sessionTtlSeconds,
          attemptLimit: config.loginLimitPerEmail, requiredForPlatformAdmins: config.twoFactor.requiredForPlatformAdmins,
        },
      };
      return twoFactorRoutes({
        getStatus: new GetTwoFactorStatus(deps), startTotp: new StartTotpEnrolment(deps), confirmTotp: new ConfirmTotpEnrolment(deps),
        startPasskey: new StartPasskeyRegistration(deps), finishPasskey: new FinishPasskeyRegistration(deps), removePasskey: new RemovePasskey(deps),
        regenerateRecoveryCodes: new RegenerateRecoveryCodes(deps), disable: new DisableTwoFactor(deps),
        startPasskeySignIn: new StartPasskeySignIn(deps), completeSignIn: new CompleteTwoFactorSignIn(deps),
        getRequirement: new GetTwoFactorRequirement({ storage }), setRequirement: new SetTwoFactorRequirement({ storage, clock }),
      });
    },
    [INFRA.config, INFRA.storage, INFRA.secrets, INFRA.clock, INFRA.passwords, INFRA.sessions, INFRA.rateLimiter]).inSingletonScope();
}
