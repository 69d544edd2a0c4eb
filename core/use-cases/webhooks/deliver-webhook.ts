import type { WebhookDelivery } from '../../domain/webhook.ts';
import { attemptWebhookDelivery, type WebhookAttemptDeps } from './webhook-attempt.ts';

/** A job that runs more than this before its delivery's next attempt is a stale duplicate. */
const EARLY_SLACK_MS = 1_000;

/**
 * The webhook-deliver job: one attempt of one PENDING delivery (webhook-attempt.ts records the outcome
 * and queues the next attempt). Deliveries no longer PENDING, and jobs that run early, are ignored, so
 * duplicate jobs are harmless. An endpoint deactivated meanwhile fails the delivery without a request.
 */
export class DeliverWebhook {
  readonly #deps: WebhookAttemptDeps;
  constructor(deps: WebhookAttemptDeps) { this.#deps = deps; }

  async execute(organizationId: string, deliveryId: string): Promise<WebhookDelivery | null> {
    const { storage, clock } = this.#deps;
    const delivery = await storage.webhookDeliveries.find(organizationId, deliveryId);
    if (!delivery || delivery.status !== 'PENDING') return delivery;
    const now = clock.now();
    if (delivery.nextAttemptAt && delivery.nextAttemptAt.getTime() - now.getTime() > EARLY_SLACK_MS) return delivery;
    const [endpoint, event] = await Promise.all([
      storage.webhookEndpoints.find(organizationId, delivery.endpointId), storage.outboundEvents.find(organizationId, delivery.eventId),
    ]);
    if (!endpoint || !endpoint.isActive || !event) {
      const failed: WebhookDelivery = { ...delivery, status: 'FAILED', nextAttemptAt: null, lastError: endpoint?.isActive === false ? 'endpoint inactive' : 'event missing', updatedAt: now };
      await storage.webhookDeliveries.save(failed);
      return failed;
    }
    return (await attemptWebhookDelivery(this.#deps, endpoint, delivery, event, { retry: true })).delivery;
  }
}
