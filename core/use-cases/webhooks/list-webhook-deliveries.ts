import { AppError } from '../../errors.ts';
import { MAX_DELIVERIES_LISTED, webhookDeliveryView } from '../../domain/webhook.ts';
import type { Storage } from '../../ports/storage.ts';

/** GET /webhook-endpoints/{id}/deliveries: the endpoint's latest MAX_DELIVERIES_LISTED deliveries, newest first. Errors: NOT_FOUND. */
export class ListWebhookDeliveries {
  readonly #deps: { storage: Pick<Storage, 'webhookEndpoints' | 'webhookDeliveries'> };
  constructor(deps: { storage: Pick<Storage, 'webhookEndpoints' | 'webhookDeliveries'> }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }, endpointId: string) {
    const { storage } = this.#deps;
    if (!await storage.webhookEndpoints.find(scope.organizationId, endpointId)) throw new AppError('NOT_FOUND', 'Webhook endpoint not found');
    return (await storage.webhookDeliveries.listByEndpoint(scope.organizationId, endpointId, MAX_DELIVERIES_LISTED)).map(webhookDeliveryView);
  }
}
