import { PreviewMessageInput, type PreviewMessageCost } from '../../../core/use-cases/messaging/preview-message-cost.ts';
import { ok, requireTenant, type RouteDefinition } from '../route.ts';

export function messagePreviewRoutes(deps: { previewMessageCost: PreviewMessageCost }): RouteDefinition[] {
  return [
    {
      method: 'POST', path: '/messages/preview', tag: 'Messages',
      summary: 'What a message would cost (price, segments, encoding) and look like, without sending, recording or charging it',
      auth: 'tenant-or-api-key', permission: 'messages:read', apiKeyScope: 'messages:send', body: PreviewMessageInput,
      responses: {
        200: '`{ channel, recipient, country, encoding, characters, perSegment, segments, unit, unitPrice, price, currency, subject, body }`; '
          + 'prices in GHS, encoding/characters/perSegment null except for SMS',
        400: 'VALIDATION_ERROR (the same checks as /messages/send) or ORGANIZATION_REQUIRED', 401: 'UNAUTHORIZED',
        403: 'FORBIDDEN (role without messages:read, or an API key without messages:send)', 422: 'TEMPLATE_NOT_APPROVED',
      },
      handler: async (input) => ok(await deps.previewMessageCost.execute(requireTenant(input), input.body)),
    },
  ];
}
