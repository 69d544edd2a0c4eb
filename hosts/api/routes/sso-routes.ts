import type Koa from 'koa';
import { AddSsoDomainInput, type AddSsoDomain } from '../../../core/use-cases/sso/add-sso-domain.ts';
import { CompleteSsoLoginInput, type CompleteSsoLogin } from '../../../core/use-cases/sso/complete-sso-login.ts';
import { ConfigureSsoInput, type ConfigureSso } from '../../../core/use-cases/sso/configure-sso.ts';
import type { GetSsoSettings } from '../../../core/use-cases/sso/get-sso-settings.ts';
import type { RemoveSsoDomain } from '../../../core/use-cases/sso/remove-sso-domain.ts';
import { SSO_STATE_TTL_SECONDS } from '../../../core/use-cases/sso/sso-support.ts';
import { StartSsoLoginInput, type StartSsoLogin } from '../../../core/use-cases/sso/start-sso-login.ts';
import type { VerifySsoDomain } from '../../../core/use-cases/sso/verify-sso-domain.ts';
import { ok, requireTenant, type RouteDefinition } from '../route.ts';

export interface SsoRouteDeps {
  getSsoSettings: GetSsoSettings;
  configureSso: ConfigureSso;
  addSsoDomain: AddSsoDomain;
  verifySsoDomain: VerifySsoDomain;
  removeSsoDomain: RemoveSsoDomain;
  startSsoLogin: StartSsoLogin;
  completeSsoLogin: CompleteSsoLogin;
  /** Secure cookies when the public URL is https. */
  secureCookies: boolean;
}

/** The sealed sign-in state: HttpOnly, SameSite=Lax, only sent to the SSO routes, gone after 10 minutes or the callback. */
const COOKIE = 'nkra_sso';
const cookieOptions = (secure: boolean, maxAge: number) => ({ httpOnly: true, sameSite: 'lax' as const, path: '/auth/sso', secure, maxAge, overwrite: true, signed: false });

export function ssoRoutes(deps: SsoRouteDeps): RouteDefinition[] {
  const setCookie = (koa: Koa.Context, value: string | null) => {
    // Koa refuses to set a Secure cookie over a plain connection unless told the proxy terminated TLS.
    if (deps.secureCookies) koa.cookies.secure = true;
    koa.cookies.set(COOKIE, value, cookieOptions(deps.secureCookies, value === null ? 0 : SSO_STATE_TTL_SECONDS * 1000));
  };
  return [
    {
      method: 'GET', path: '/organizations/sso', tag: 'Single sign-on', summary: 'The organization\'s OpenID Connect connection (never its secret), claimed domains with their TXT records, and the redirect URI',
      auth: 'tenant', permission: 'organization:write', responses: { 200: 'SSO settings', 401: 'UNAUTHORIZED', 403: 'FORBIDDEN' },
      handler: async (input) => ok(await deps.getSsoSettings.execute(requireTenant(input).organizationId)),
    },
    {
      method: 'PUT', path: '/organizations/sso', tag: 'Single sign-on', summary: 'Save the organization\'s OpenID Connect connection (the client secret is write-only)',
      auth: 'tenant', permission: 'organization:write', body: ConfigureSsoInput,
      responses: { 200: 'The saved connection', 400: 'VALIDATION_ERROR', 403: 'FORBIDDEN', 409: 'SLUG_EXISTS' },
      handler: async (input) => ok(await deps.configureSso.execute(requireTenant(input).organizationId, input.body)),
    },
    {
      method: 'POST', path: '/organizations/sso/domains', tag: 'Single sign-on', summary: 'Claim an email domain; answers the DNS TXT record that proves it',
      auth: 'tenant', permission: 'organization:write', body: AddSsoDomainInput,
      responses: { 201: 'The claimed domain with its TXT record', 400: 'VALIDATION_ERROR', 409: 'DOMAIN_TAKEN', 422: 'LIMIT_REACHED' },
      handler: async (input) => ok(await deps.addSsoDomain.execute(requireTenant(input).organizationId, input.body), 201),
    },
    {
      method: 'POST', path: '/organizations/sso/domains/:id/verify', tag: 'Single sign-on', summary: 'Check the domain\'s TXT record and mark it verified',
      auth: 'tenant', permission: 'organization:write',
      responses: { 200: 'The verified domain', 404: 'NOT_FOUND', 409: 'DOMAIN_TAKEN', 422: 'DOMAIN_NOT_VERIFIED' },
      handler: async (input) => ok(await deps.verifySsoDomain.execute(requireTenant(input).organizationId, input.params['id']!)),
    },
    {
      method: 'DELETE', path: '/organizations/sso/domains/:id', tag: 'Single sign-on', summary: 'Remove a claimed domain',
      auth: 'tenant', permission: 'organization:write', responses: { 200: '`{ removed: true }`', 404: 'NOT_FOUND' },
      handler: async (input) => ok(await deps.removeSsoDomain.execute(requireTenant(input).organizationId, input.params['id']!)),
    },
    {
      method: 'POST', path: '/auth/sso/start', tag: 'Auth', summary: 'Start single sign-on by email (its verified domain) or organization slug: answers the identity provider URL and sets the sign-in cookie',
      auth: 'none', body: StartSsoLoginInput,
      responses: { 200: '`{ authorizationUrl, expiresAt }`', 400: 'VALIDATION_ERROR', 404: 'SSO_NOT_CONFIGURED', 429: 'RATE_LIMITED', 502: 'SSO_PROVIDER_UNAVAILABLE' },
      handler: async ({ body, ip, koa }) => {
        const started = await deps.startSsoLogin.execute(body, ip);
        setCookie(koa, started.sealedState);
        return ok({ authorizationUrl: started.authorizationUrl, expiresAt: started.expiresAt });
      },
    },
    {
      method: 'POST', path: '/auth/sso/callback', tag: 'Auth', summary: 'Complete single sign-on with the parameters the identity provider returned; answers a session as /auth/login does',
      auth: 'none', body: CompleteSsoLoginInput,
      responses: {
        200: 'A session token, a device token and the user\'s organizations (`organizationId`: the one signed in to)', 400: 'SSO_STATE_MISMATCH or VALIDATION_ERROR',
        401: 'SSO_LOGIN_FAILED', 403: 'SSO_DOMAIN_MISMATCH', 404: 'SSO_NOT_CONFIGURED', 502: 'SSO_PROVIDER_UNAVAILABLE',
      },
      handler: async ({ body, ip, koa }) => {
        const sealed = koa.cookies.get(COOKIE) ?? undefined;
        setCookie(koa, null); // one use, whatever the outcome
        return ok(await deps.completeSsoLogin.execute(sealed, body, ip));
      },
    },
  ];
}
