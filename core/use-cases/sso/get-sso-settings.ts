import { MAX_SSO_DOMAINS, ssoConnectionView, ssoDomainView, ssoRedirectUri } from '../../domain/sso.ts';
import type { Storage } from '../../ports/storage.ts';

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
