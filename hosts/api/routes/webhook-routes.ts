import { MAX_DELIVERIES_LISTED } from '../../../core/domain/webhook.ts';
import { CreateWebhookEndpointInput, type CreateWebhookEndpoint } from '../../../core/use-cases/webhooks/create-webhook-endpoint.ts';
import type { DeleteWebhookEndpoint } from '../../../core/use-cases/webhooks/delete-webhook-endpoint.ts';
import type { ListWebhookDeliveries } from '../../../core/use-cases/webhooks/list-webhook-deliveries.ts';
import type { ListWebhookEndpoints } from '../../../core/use-cases/webhooks/list-webhook-endpoints.ts';
import type { ReplayWebhookDelivery } from '../../../core/use-cases/webhooks/replay-webhook-delivery.ts';
import type { RotateWebhookSecret } from '../../../core/use-cases/webhooks/rotate-webhook-secret.ts';
import { TestWebhookEndpointInput, type TestWebhookEndpoint } from '../../../core/use-cases/webhooks/test-webhook-endpoint.ts';
import { UpdateWebhookEndpointInput, type UpdateWebhookEndpoint } from '../../../core/use-cases/webhooks/update-webhook-endpoint.ts';
import { ok, requireTenant, type RouteDefinition } from '../route.ts';

export interface WebhookRouteDeps {
  createWebhookEndpoint: CreateWebhookEndpoint;
  listWebhookEndpoints: ListWebhookEndpoints;
  updateWebhookEndpoint: UpdateWebhookEndpoint;
  deleteWebhookEndpoint: DeleteWebhookEndpoint;
  testWebhookEndpoint: TestWebhookEndpoint;
  rotateWebhookSecret: RotateWebhookSecret;
  listWebhookDeliveries: ListWebhookDeliveries;
  replayWebhookDelivery: ReplayWebhookDelivery;
}

const DENIED = {
  401: 'UNAUTHORIZED (API keys are not accepted here)', 403: 'FORBIDDEN (not a member, or the role lacks the permission)',
};
const NOT_FOUND = { 404: 'NOT_FOUND (unknown id, or an endpoint of another organization)' };
const TAG = 'Webhook endpoints';

export function webhookRoutes(deps: WebhookRouteDeps): RouteDefinition[] {
  const id = (params: Record<string, string>) => params['id'] ?? '';
  return [
    {
      method: 'GET', path: '/webhook-endpoints', tag: TAG, summary: 'The organization\'s webhook endpoints (without secrets)',
      auth: 'tenant', permission: 'webhooks:read',
      responses: { 200: 'Endpoints, newest first (at most 100)', 400: 'ORGANIZATION_REQUIRED', ...DENIED },
      handler: async (input) => ok(await deps.listWebhookEndpoints.execute(requireTenant(input))),
    },
    {
      method: 'POST', path: '/webhook-endpoints', tag: TAG, summary: 'Register a webhook endpoint; the signing secret is returned this once',
      auth: 'tenant', permission: 'webhooks:write', body: CreateWebhookEndpointInput,
      responses: {
        201: 'The endpoint with `secret` (shown only now)', ...DENIED,
        400: 'URL_REQUIRED; VALIDATION_ERROR (url not http(s), resolving to a private/loopback/link-local/metadata address, unknown event kind, too many endpoints); ORGANIZATION_REQUIRED',
      },
      handler: async (input) => ok(await deps.createWebhookEndpoint.execute(requireTenant(input), input.body), 201),
    },
    {
      method: 'PATCH', path: '/webhook-endpoints/:id', tag: TAG, summary: 'Change url, events or isActive',
      auth: 'tenant', permission: 'webhooks:write', body: UpdateWebhookEndpointInput,
      responses: { 200: 'The endpoint', 400: 'VALIDATION_ERROR or ORGANIZATION_REQUIRED', ...DENIED, ...NOT_FOUND },
      handler: async (input) => ok(await deps.updateWebhookEndpoint.execute(requireTenant(input), id(input.params), input.body)),
    },
    {
      method: 'DELETE', path: '/webhook-endpoints/:id', tag: TAG, summary: 'Deactivate a webhook endpoint',
      auth: 'tenant', permission: 'webhooks:write',
      responses: { 200: 'The deactivated endpoint', 400: 'ORGANIZATION_REQUIRED', ...DENIED, ...NOT_FOUND },
      handler: async (input) => ok(await deps.deleteWebhookEndpoint.execute(requireTenant(input), id(input.params))),
    },
    {
      method: 'POST', path: '/webhook-endpoints/:id/test', tag: TAG, summary: 'Send a signed test event now and answer with the attempt\'s outcome',
      auth: 'tenant', permission: 'webhooks:write', body: TestWebhookEndpointInput,
      responses: {
        200: '`success`, `statusCode`, `error`, `durationMs`, the event sent and the recorded delivery', 400: 'VALIDATION_ERROR (unknown event kind) or ORGANIZATION_REQUIRED',
        ...DENIED, 404: 'NOT_FOUND (no active endpoint with this id in the organization)',
      },
      handler: async (input) => ok(await deps.testWebhookEndpoint.execute(requireTenant(input), id(input.params), input.body)),
    },
    {
      method: 'POST', path: '/webhook-endpoints/:id/rotate-secret', tag: TAG, summary: 'New signing secret; the old one stays valid for 24 hours',
      auth: 'tenant', permission: 'webhooks:write',
      responses: { 200: 'The endpoint with the new `secret` (shown only now) and `secretRotationGraceUntil`', 400: 'ORGANIZATION_REQUIRED', ...DENIED, ...NOT_FOUND },
      handler: async (input) => ok(await deps.rotateWebhookSecret.execute(requireTenant(input), id(input.params))),
    },
    {
      method: 'GET', path: '/webhook-endpoints/:id/deliveries', tag: TAG, summary: 'Recent deliveries of an endpoint: status, response code, attempts',
      auth: 'tenant', permission: 'webhooks:read',
      responses: { 200: `Deliveries, newest first (at most ${MAX_DELIVERIES_LISTED})`, 400: 'ORGANIZATION_REQUIRED', ...DENIED, ...NOT_FOUND },
      handler: async (input) => ok(await deps.listWebhookDeliveries.execute(requireTenant(input), id(input.params))),
    },
    {
      method: 'POST', path: '/webhook-endpoints/:id/deliveries/:deliveryId/replay', tag: TAG, summary: 'Queue a delivery again with a fresh retry schedule',
      auth: 'tenant', permission: 'webhooks:write',
      responses: {
        202: 'The delivery, PENDING', 400: 'ORGANIZATION_REQUIRED', ...DENIED,
        404: 'NOT_FOUND (unknown delivery or endpoint, or the endpoint is not active)', 409: 'CONFLICT (the delivery is already pending)',
      },
      handler: async (input) => ok(await deps.replayWebhookDelivery.execute(requireTenant(input), id(input.params), input.params['deliveryId'] ?? ''), 202),
    },
  ];
}
