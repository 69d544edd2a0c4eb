import type { CreateProvider } from '../../../core/use-cases/providers/create-provider.ts';
import type { DeleteProvider } from '../../../core/use-cases/providers/delete-provider.ts';
import type { UpdateProvider } from '../../../core/use-cases/providers/update-provider.ts';
import { GetProviderMetricsInput, type GetProviderMetrics } from '../../../core/use-cases/providers/get-provider-metrics.ts';
import { ProviderTestInput, type SendProviderTestMessage } from '../../../core/use-cases/providers/send-provider-test-message.ts';
import { ProviderDefinition } from '../../../core/use-cases/providers/configure-providers.ts';
import { ProviderPatch } from '../../../core/use-cases/providers/provider-admin.ts';
import { ok, requireUser, type RequestInput, type RouteDefinition } from '../route.ts';

export interface AdminProviderRouteDeps {
  createProvider: CreateProvider;
  updateProvider: UpdateProvider;
  deleteProvider: DeleteProvider;
  sendTestMessage: SendProviderTestMessage;
  getProviderMetrics: GetProviderMetrics;
}

const admin = (input: RequestInput) => ({ userId: requireUser(input).userId });

/** Provider administration (platform administrators; docs/providers.md). Reads stay on /providers. */
export function adminProviderRoutes(deps: AdminProviderRouteDeps): RouteDefinition[] {
  return [
    {
      method: 'POST', path: '/admin/providers', tag: 'Admin', summary: 'Add a messaging provider (credentials write-only, encrypted at rest); live in every process within seconds',
      auth: 'platform-admin', body: ProviderDefinition,
      responses: { 201: 'The provider (never its credentials)', 400: 'VALIDATION_ERROR (including an unknown vendor or a missing credential)', 401: 'UNAUTHORIZED', 403: 'FORBIDDEN', 409: 'CONFLICT (name taken)' },
      handler: async (input) => ok(await deps.createProvider.execute(admin(input), input.body), 201),
    },
    {
      method: 'PATCH', path: '/admin/providers/:id', tag: 'Admin', summary: 'Change routes, priority, settings or activation, or rotate credentials',
      auth: 'platform-admin', body: ProviderPatch,
      responses: { 200: 'The provider', 400: 'VALIDATION_ERROR', 401: 'UNAUTHORIZED', 403: 'FORBIDDEN', 404: 'NOT_FOUND', 409: 'CONFLICT (name taken)' },
      handler: async (input) => ok(await deps.updateProvider.execute(admin(input), input.params['id'] ?? '', input.body)),
    },
    {
      method: 'POST', path: '/admin/providers/:id/test-message', tag: 'Admin', summary: 'Send one message through this provider only (not recorded, not charged; audited)',
      auth: 'platform-admin', body: ProviderTestInput,
      responses: { 200: '`{ accepted, providerMessageId | errorCode, errorMessage, retryable, latencyMs }`', 400: 'VALIDATION_ERROR', 401: 'UNAUTHORIZED', 403: 'FORBIDDEN', 404: 'NOT_FOUND', 503: 'PROVIDER_UNAVAILABLE (inactive or not loaded)' },
      handler: async (input) => ok(await deps.sendTestMessage.execute(admin(input), input.params['id'] ?? '', input.body)),
    },
    {
      method: 'GET', path: '/admin/provider-metrics', tag: 'Admin',
      summary: 'Per provider figures of the last minutes from the shared database (attempts, error rate, latency p50/p95/max, top error codes, per-minute series, latest health, circuit as seen by this API process) and waiting messages per channel',
      auth: 'platform-admin', query: GetProviderMetricsInput,
      responses: { 200: '`{ window, circuitScope, providers: [...], series: [{ minute, attempts, failed }], queues: [...] }`', 400: 'VALIDATION_ERROR (minutes outside 1..60)', 401: 'UNAUTHORIZED', 403: 'FORBIDDEN' },
      handler: async (input) => ok(await deps.getProviderMetrics.execute(admin(input), input.query)),
    },
    {
      method: 'DELETE', path: '/admin/providers/:id', tag: 'Admin', summary: 'Delete a provider with its credentials and health history',
      auth: 'platform-admin', responses: { 200: '`{ deleted: true, id }`', 401: 'UNAUTHORIZED', 403: 'FORBIDDEN', 404: 'NOT_FOUND' },
      handler: async (input) => ok(await deps.deleteProvider.execute(admin(input), input.params['id'] ?? '')),
    },
  ];
}
