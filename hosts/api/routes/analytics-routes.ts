import { GetAnalyticsCostsInput, type GetAnalyticsCosts } from '../../../core/use-cases/analytics/get-analytics-costs.ts';
import type { GetAnalyticsOverview } from '../../../core/use-cases/analytics/get-analytics-overview.ts';
import type { GetAnalyticsRecommendations } from '../../../core/use-cases/analytics/get-analytics-recommendations.ts';
import type { ListAnalyticsFailures } from '../../../core/use-cases/analytics/list-analytics-failures.ts';
import { ok, requireTenant, type RouteDefinition } from '../route.ts';

export interface AnalyticsRouteDeps {
  overview: GetAnalyticsOverview;
  recommendations: GetAnalyticsRecommendations;
  costs: GetAnalyticsCosts;
  failures: ListAnalyticsFailures;
}

const COMMON = {
  400: 'ORGANIZATION_REQUIRED', 401: 'UNAUTHORIZED (API keys are not accepted here)', 403: 'FORBIDDEN (not a member, or the role lacks the permission)',
};

export function analyticsRoutes(deps: AnalyticsRouteDeps): RouteDefinition[] {
  return [
    {
      method: 'GET', path: '/analytics/overview', tag: 'Analytics', summary: '30-day send volume per day and channel, delivery rate, spend, month-over-month trends',
      auth: 'tenant', permission: 'analytics:read', responses: { 200: 'The overview (money in GHS)', ...COMMON },
      handler: async (input) => ok(await deps.overview.execute(requireTenant(input))),
    },
    {
      method: 'GET', path: '/analytics/recommendations', tag: 'Analytics', summary: 'Up to four recommendations computed from the organization\'s own data',
      auth: 'tenant', permission: 'analytics:read', responses: { 200: 'Recommendations, most urgent first, each with the figures that triggered it', ...COMMON },
      handler: async (input) => ok(await deps.recommendations.execute(requireTenant(input))),
    },
    {
      method: 'GET', path: '/analytics/costs', tag: 'Analytics', summary: 'Usage and cost per calendar month and channel',
      auth: 'tenant', permission: 'analytics:read', query: GetAnalyticsCostsInput,
      responses: { 200: 'One item per month, oldest first, with the ledger\'s debits and refunds', ...COMMON, 400: 'VALIDATION_ERROR (months not 1-12) or ORGANIZATION_REQUIRED' },
      handler: async (input) => ok(await deps.costs.execute(requireTenant(input), input.query)),
    },
    {
      method: 'GET', path: '/analytics/failures', tag: 'Analytics', summary: 'The last 50 failed delivery logs with their reasons',
      auth: 'tenant', permission: 'analytics:read', responses: { 200: 'Failed delivery logs, newest first (at most 50)', ...COMMON },
      handler: async (input) => ok(await deps.failures.execute(requireTenant(input))),
    },
  ];
}
