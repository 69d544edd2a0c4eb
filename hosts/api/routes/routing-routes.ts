import type { DeleteNetworkRoute } from '../../../core/use-cases/routing/delete-network-route.ts';
import { GetNetworkAnalyticsInput, type GetNetworkAnalytics } from '../../../core/use-cases/routing/get-network-analytics.ts';
import type { GetRoutingOverview } from '../../../core/use-cases/routing/get-routing-overview.ts';
import { LookUpNumberInput, type LookUpNumber } from '../../../core/use-cases/routing/look-up-number.ts';
import { SaveNetworkRouteInput, type SaveNetworkRoute } from '../../../core/use-cases/routing/save-network-route.ts';
import { RoutingSettingsInput, type UpdateRoutingSettings } from '../../../core/use-cases/routing/update-routing-settings.ts';
import { ok, requireTenant, requireUser, type RequestInput, type RouteDefinition } from '../route.ts';

export interface RoutingRouteDeps {
  saveNetworkRoute: SaveNetworkRoute;
  deleteNetworkRoute: DeleteNetworkRoute;
  overview: GetRoutingOverview;
  settings: UpdateRoutingSettings;
  lookUpNumber: LookUpNumber;
  networkAnalytics: GetNetworkAnalytics;
}

const admin = (input: RequestInput) => ({ userId: requireUser(input).userId });
const ADMIN_COMMON = { 401: 'UNAUTHORIZED', 403: 'FORBIDDEN' };
const TENANT_COMMON = { 400: 'ORGANIZATION_REQUIRED', 401: 'UNAUTHORIZED', 403: 'FORBIDDEN (not a member, or the role lacks the permission)' };

/** Network-aware routing (docs/routing.md): platform routes and learning; organizations' lookup setting, lookups and per-network analytics. */
export function routingRoutes(deps: RoutingRouteDeps): RouteDefinition[] {
  return [
    {
      method: 'GET', path: '/admin/routing', tag: 'Admin', summary: 'Network routes, learning states and shifts, per (provider, network) figures of the last hour, the numbering plans',
      auth: 'platform-admin', responses: { 200: '`{ routes, learning, shifts, performance, policy, networks }`', ...ADMIN_COMMON },
      handler: async (input) => ok(await deps.overview.execute(admin(input))),
    },
    {
      method: 'PUT', path: '/admin/network-routes', tag: 'Admin', summary: 'Create or replace the route of a (channel, country, network): providers in order, price per unit (GHS), pin',
      auth: 'platform-admin', body: SaveNetworkRouteInput,
      responses: { 200: 'The route', 400: 'VALIDATION_ERROR (unknown network, not a platform provider of the channel, price)', ...ADMIN_COMMON, 409: 'LIMIT_REACHED' },
      handler: async (input) => ok(await deps.saveNetworkRoute.execute(admin(input), input.body)),
    },
    {
      method: 'DELETE', path: '/admin/network-routes/:id', tag: 'Admin', summary: 'Delete a network route (its messages go back to the country order and price)',
      auth: 'platform-admin', responses: { 200: '`{ deleted: true, id }`', ...ADMIN_COMMON, 404: 'NOT_FOUND' },
      handler: async (input) => ok(await deps.deleteNetworkRoute.execute(admin(input), input.params['id'] ?? '')),
    },
    {
      method: 'GET', path: '/routing/settings', tag: 'Routing', summary: 'The organization\'s paid number lookup mode, whether lookups are available and their price',
      auth: 'tenant', permission: 'organization:read', responses: { 200: '`{ lookupMode, lookupAvailable, lookupPrice }`', ...TENANT_COMMON },
      handler: async (input) => ok(await deps.settings.get(requireTenant(input))),
    },
    {
      method: 'PUT', path: '/routing/settings', tag: 'Routing', summary: 'Set the paid number lookup mode: off, unknown (numbers no prefix places) or always',
      auth: 'tenant', permission: 'organization:write', body: RoutingSettingsInput,
      responses: { 200: '`{ lookupMode, lookupAvailable, lookupPrice }`', ...TENANT_COMMON, 400: 'VALIDATION_ERROR or ORGANIZATION_REQUIRED' },
      handler: async (input) => ok(await deps.settings.execute(requireTenant(input), input.body)),
    },
    {
      method: 'POST', path: '/routing/lookups', tag: 'Routing', summary: 'The mobile network a number is on now: a paid lookup (charged like a send) unless it is known from a lookup or delivery report',
      auth: 'tenant-or-api-key', permission: 'messages:send', apiKeyScope: 'messages:send', body: LookUpNumberInput,
      responses: { 200: '`{ number, country, network, source, charged }`', 400: 'VALIDATION_ERROR', 401: 'UNAUTHORIZED', 402: 'INSUFFICIENT_BALANCE', 403: 'FORBIDDEN',
        502: 'LOOKUP_FAILED', 503: 'PROVIDER_UNAVAILABLE' },
      handler: async (input) => ok(await deps.lookUpNumber.execute(requireTenant(input), input.body)),
    },
    {
      method: 'GET', path: '/analytics/networks', tag: 'Analytics', summary: 'Per mobile network and provider: messages, delivery rate, latency p50/p95, cost; better routes the data shows',
      auth: 'tenant', permission: 'analytics:read', query: GetNetworkAnalyticsInput,
      responses: { 200: '`{ from, to, networks: [...], recommendations: [...] }`', ...TENANT_COMMON, 400: 'VALIDATION_ERROR (days outside 1..90) or ORGANIZATION_REQUIRED' },
      handler: async (input) => ok(await deps.networkAnalytics.execute(requireTenant(input), input.query)),
    },
  ];
}
