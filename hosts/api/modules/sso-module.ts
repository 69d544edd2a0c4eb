import type { Container } from 'inversify';
import { NodeDnsTxtResolver } from '../../../adapters/sso/node-dns-txt-resolver.ts';
import { OpenIdClientProvider } from '../../../adapters/sso/openid-client-provider.ts';
import { AesGcmCredentialCipher } from '../../../adapters/security/aes-gcm-credential-cipher.ts';
import type { OpenIdProvider } from '../../../core/ports/openid-provider.ts';
import type { TxtResolver } from '../../../core/ports/txt-resolver.ts';
import { AddSsoDomain } from '../../../core/use-cases/sso/add-sso-domain.ts';
import { CompleteSsoLogin } from '../../../core/use-cases/sso/complete-sso-login.ts';
import { ConfigureSso } from '../../../core/use-cases/sso/configure-sso.ts';
import { GetSsoSettings } from '../../../core/use-cases/sso/get-sso-settings.ts';
import { RemoveSsoDomain } from '../../../core/use-cases/sso/remove-sso-domain.ts';
import { StartSsoLogin } from '../../../core/use-cases/sso/start-sso-login.ts';
import { VerifySsoDomain } from '../../../core/use-cases/sso/verify-sso-domain.ts';
import { INFRA, token } from '../../tokens.ts';
import { EGRESS } from '../../webhook-bindings.ts';
import { ssoRoutes } from '../routes/sso-routes.ts';
import { API } from '../tokens.ts';

export const SSO = {
  provider: token<OpenIdProvider>('sso.OpenIdProvider'),
  dns: token<TxtResolver>('sso.TxtResolver'),
} as const;

/** Single sign-on (docs/security.md, "Single sign-on"): OpenID Connect per organization, verified email domains. */
export function bindSsoModule(container: Container): void {
  container.bind(SSO.provider).toResolvedValue((config, egress) => new OpenIdClientProvider({
    egress, timeoutMs: config.ssoTimeoutMs ?? 10_000, allowHttp: config.nodeEnv !== 'production',
  }), [INFRA.config, EGRESS]).inSingletonScope();
  container.bind(SSO.dns).toResolvedValue((config) => new NodeDnsTxtResolver({ servers: config.dnsServers ?? [], timeoutMs: 5_000 }), [INFRA.config]).inSingletonScope();
  container.bind(API.routes).toResolvedValue((config, storage, egress, provider, dns, secrets, sessions, ids, clock, rateLimiter) => {
    const cipher = new AesGcmCredentialCipher(config.encryptionKey);
    const login = { storage, provider, cipher, secrets, clock, publicUrl: config.publicUrl };
    return ssoRoutes({
      getSsoSettings: new GetSsoSettings({ storage, publicUrl: config.publicUrl }),
      configureSso: new ConfigureSso({ storage, cipher, egress, clock }),
      addSsoDomain: new AddSsoDomain({ storage, secrets, ids, clock }),
      verifySsoDomain: new VerifySsoDomain({ storage, dns, clock }),
      removeSsoDomain: new RemoveSsoDomain({ storage }),
      startSsoLogin: new StartSsoLogin({ ...login, rateLimiter, perIpLimit: 60 }),
      completeSsoLogin: new CompleteSsoLogin({ ...login, sessions, ids, sessionTtlSeconds: config.sessionTtlSeconds }),
      secureCookies: config.publicUrl.startsWith('https://'),
    });
  }, [INFRA.config, INFRA.storage, EGRESS, SSO.provider, SSO.dns, INFRA.secrets, INFRA.sessions, INFRA.ids, INFRA.clock, INFRA.rateLimiter]).inSingletonScope();
}
