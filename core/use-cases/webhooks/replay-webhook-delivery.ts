import { AppError } from '../../errors.ts';
import { webhookDeliveryView } from '../../domain/webhook.ts';
import type { Clock } from '../../ports/clock.ts';
import { QUEUES } from '../../ports/job-queue.ts';
import type { Storage } from '../../ports/storage.ts';

/**
 * POST /webhook-endpoints/{id}/deliveries/{deliveryId}/replay: queues the delivery again with a fresh
 * retry schedule (attempts restart at 0; the same event id and payload, re-signed with the current
 * secret). Answers 202 with the PENDING delivery. Errors: NOT_FOUND (unknown delivery, or the endpoint
 * is not active), CONFLICT (already PENDING: its next attempt is queued).
 */
export class ReplayWebhookDelivery {
  readonly #deps: { storage: Storage; clock: Clock };
  constructor(deps: { storage: Storage; clock: Clock }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }, endpointId: string, deliveryId: string) {
    const { storage, clock } = this.#deps;
    const endpoint = await storage.webhookEndpoints.find(scope.organizationId, endpointId);
    const delivery = await storage.webhookDeliveries.find(scope.organizationId, deliveryId);
    if (!endpoint || !delivery || delivery.endpointId !== endpoint.id) throw new AppError('NOT_FOUND', 'Webhook delivery not found');
    if (!endpoint.isActive) throw new AppError('NOT_FOUND', 'The webhook endpoint is not active; re-activate it first');
    if (delivery.status === 'PENDING') throw new AppError('CONFLICT', 'The delivery is already pending; its next attempt is queued', { nextAttemptAt: delivery.nextAttemptAt?.toISOString() ?? null });
    const now = clock.now();
    const replayed = { ...delivery, status: 'PENDING' as const, attempts: 0, nextAttemptAt: now, updatedAt: now };
    await storage.transaction(async (tx) => {
      await tx.webhookDeliveries.save(replayed);
      await tx.jobs.enqueue(QUEUES.webhookDeliver, { deliveryId: delivery.id, organizationId: scope.organizationId });
    });
    return webhookDeliveryView(replayed);
  }
}
