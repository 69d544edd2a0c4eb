import type { GetClickRates } from '../../../core/use-cases/links/get-click-rates.ts';
import { ClickRatesQuery } from '../../../core/use-cases/links/get-click-rates.ts';
import type { GetLinkSettings } from '../../../core/use-cases/links/get-link-settings.ts';
import { UpdateLinkSettingsInput, type UpdateLinkSettings } from '../../../core/use-cases/links/update-link-settings.ts';
import type { VerifyLinkDomain } from '../../../core/use-cases/links/verify-link-domain.ts';
import { ok, requireTenant, type RouteDefinition } from '../route.ts';

export interface LinkRouteDeps {
  getLinkSettings: GetLinkSettings;
  updateLinkSettings: UpdateLinkSettings;
  verifyLinkDomain: VerifyLinkDomain;
  getClickRates: GetClickRates;
}

const DENIED = { 400: 'ORGANIZATION_REQUIRED', 401: 'UNAUTHORIZED', 403: 'FORBIDDEN (the role lacks the permission)' };

/** Tracked-link settings, the custom link domain and click rates (docs/links.md). The redirect itself: hosts/links/link-redirects.ts. */
export function linkRoutes(deps: LinkRouteDeps): RouteDefinition[] {
  return [
    {
      method: 'GET', path: '/links/settings', tag: 'Links', summary: 'Tracking settings (links, email opens, templates left untracked), the custom link domain with its TXT record, where links point',
      auth: 'tenant', permission: 'organization:write', responses: { 200: 'Link settings', ...DENIED },
      handler: async (input) => ok(await deps.getLinkSettings.execute(requireTenant(input).organizationId)),
    },
    {
      method: 'PATCH', path: '/links/settings', tag: 'Links', summary: 'Change tracking settings or the custom link domain (a new domain starts unverified)',
      auth: 'tenant', permission: 'organization:write', body: UpdateLinkSettingsInput,
      responses: { 200: 'Link settings', ...DENIED, 400: 'VALIDATION_ERROR (unknown template, not a host name)', 409: 'DOMAIN_TAKEN' },
      handler: async (input) => ok(await deps.updateLinkSettings.execute(requireTenant(input).organizationId, input.body)),
    },
    {
      method: 'POST', path: '/links/settings/domain/verify', tag: 'Links', summary: 'Check the custom link domain\'s TXT record (_nkra-links.<domain>) and mark it verified',
      auth: 'tenant', permission: 'organization:write',
      responses: { 200: 'Link settings (customDomain.verified true)', ...DENIED, 404: 'NOT_FOUND (no custom domain set)', 409: 'DOMAIN_TAKEN', 422: 'DOMAIN_NOT_VERIFIED' },
      handler: async (input) => ok(await deps.verifyLinkDomain.execute(requireTenant(input).organizationId)),
    },
    {
      method: 'GET', path: '/analytics/clicks', tag: 'Analytics', summary: 'Click rate of messages with tracked links per template, campaign or locale (by=template|campaign|locale, from, to; default the last 30 days)',
      auth: 'tenant', permission: 'analytics:read', query: ClickRatesQuery,
      responses: { 200: 'Per group: messages, clickedMessages, clicks, uniqueClicks, clickRate', ...DENIED, 400: 'VALIDATION_ERROR' },
      handler: async (input) => ok(await deps.getClickRates.execute(requireTenant(input).organizationId, input.query)),
    },
  ];
}
