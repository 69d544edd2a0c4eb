import type { Container } from 'inversify';
import { GetClickRates } from '../../../core/use-cases/links/get-click-rates.ts';
import { GetLinkSettings } from '../../../core/use-cases/links/get-link-settings.ts';
import { UpdateLinkSettings } from '../../../core/use-cases/links/update-link-settings.ts';
import { VerifyLinkDomain } from '../../../core/use-cases/links/verify-link-domain.ts';
import { linkRedirectRoutes, linkRedirects, type LinkRedirects } from '../../links/link-redirects.ts';
import { INFRA, token } from '../../tokens.ts';
import { linkRoutes } from '../routes/link-routes.ts';
import { API } from '../tokens.ts';
import { SSO } from './sso-module.ts';
import { MESSAGING } from '../../messaging-bindings.ts';

export const LINKS = {
  /** The redirect and its click buffer; main.ts starts its flush timer and stops it at shutdown. */
  redirects: token<LinkRedirects>('links.Redirects'),
} as const;

/** Tracked links (docs/links.md): the redirect in the API host, settings, the custom domain's TXT check, click rates. */
export function bindLinksModule(container: Container): void {
  container.bind(LINKS.redirects).toResolvedValue((config, storage, clock, ids, logger) => linkRedirects({ storage, clock, ids, logger, linkBaseUrl: config.linkBaseUrl }),
    [INFRA.config, INFRA.storage, INFRA.clock, INFRA.ids, INFRA.logger]).inSingletonScope();
  container.bind(API.routes).toResolvedValue((config, storage, clock, secrets, dns, redirects, tracking) => {
    // This process's caches see a change at once; the others within CachedLinkSettings.TTL_MS.
    const onChange = (organizationId: string) => { tracking.settings.forget?.(organizationId); redirects.forgetDomains(); };
    return [
    ...linkRedirectRoutes(redirects.follow),
    ...linkRoutes({
      getLinkSettings: new GetLinkSettings({ storage, clock, platformBase: config.linkBaseUrl }),
      updateLinkSettings: new UpdateLinkSettings({ storage, clock, secrets, platformBase: config.linkBaseUrl, onChange }),
      verifyLinkDomain: new VerifyLinkDomain({ storage, clock, dns, platformBase: config.linkBaseUrl, onChange }),
      getClickRates: new GetClickRates({ storage, clock }),
    }),
    ];
  }, [INFRA.config, INFRA.storage, INFRA.clock, INFRA.secrets, SSO.dns, LINKS.redirects, MESSAGING.linkTracking]).inSingletonScope();
}
