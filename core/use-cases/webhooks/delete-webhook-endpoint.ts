import { AppError } from '../../errors.ts';
import { webhookEndpointView } from '../../domain/webhook.ts';
import type { Clock } from '../../ports/clock.ts';
import type { Storage } from '../../ports/storage.ts';
import type { WebhookSubscriptions } from '../../ports/webhook-subscriptions.ts';

/**
 * DELETE /webhook-endpoints/{id}: deactivates (spec section 3); the endpoint and its delivery history
 * stay listed, and PATCH isActive=true brings it back. Pending retries are dropped at their next
 * attempt. Errors: NOT_FOUND (unknown id, another organization's endpoint).
 */
export class DeleteWebhookEndpoint {
  readonly #deps: { storage: Storage; clock: Clock; subscriptions?: WebhookSubscriptions };
  constructor(deps: { storage: Storage; clock: Clock; subscriptions?: WebhookSubscriptions }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }, id: string) {
    const endpoint = await this.#deps.storage.webhookEndpoints.find(scope.organizationId, id);
    if (!endpoint) throw new AppError('NOT_FOUND', 'Webhook endpoint not found');
    const updated = { ...endpoint, isActive: false, updatedAt: this.#deps.clock.now() };
    await this.#deps.storage.webhookEndpoints.save(updated);
    this.#deps.subscriptions?.invalidate(scope.organizationId);
    return webhookEndpointView(updated);
  }
}
