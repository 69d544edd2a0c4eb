import { ssoDomainView, MAX_SSO_DOMAINS, type SsoConnection } from '../../domain/sso.ts';
import type { Storage } from '../../ports/storage.ts';

/** The connection as owners see it: never the client secret, only that one is set. */
export function ssoConnectionView(c: SsoConnection) {
  return {
    issuerUrl: c.issuerUrl, clientId: c.clientId, clientSecretSet: true, slug: c.slug, scopes: c.scopes,
    defaultRole: c.defaultRole, ssoOnly: c.ssoOnly, createdAt: c.createdAt.toISOString(), updatedAt: c.updatedAt.toISOString(),
  };
}

/**
 * GET /organizations/sso: the organization's connection (null before one is saved), its claimed domains
 * with their TXT records, and the redirect URI to register at the identity provider.
 */
export class GetSsoSettings {
  readonly #deps: { storage: Storage; publicUrl: string };
  constructor(deps: { storage: Storage; publicUrl: string }) { this.#deps = deps; }

  async execute(organizationId: string) {
    const { storage, publicUrl } = this.#deps;
    const [connection, domains] = await Promise.all([storage.sso.findConnection(organizationId), storage.sso.listDomains(organizationId, MAX_SSO_DOMAINS)]);
    return {
      redirectUri: ssoRedirectUri(publicUrl),
      connection: connection ? ssoConnectionView(connection) : null,
      domains: domains.map(ssoDomainView),
    };
  }
}

/** Where identity providers send the browser back: the dashboard's callback page. */
export function ssoRedirectUri(publicUrl: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/sso/callback`;
}
