import type { WebhookDelivery } from '../../domain/webhook.ts';
import type { Clock } from '../../ports/clock.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import { QUEUES } from '../../ports/job-queue.ts';
import type { Storage } from '../../ports/storage.ts';

/**
 * The webhook-dispatch job: fans a recorded outbound event out to the organization's active endpoints
 * subscribed to its kind. One delivery per endpoint and event (unique), each with its own
 * webhook-deliver job, written in one transaction: a repeated job creates nothing twice.
 * Returns the number of deliveries created.
 */
export class DispatchOutboundEvent {
  readonly #deps: { storage: Storage; ids: IdGenerator; clock: Clock };
  constructor(deps: { storage: Storage; ids: IdGenerator; clock: Clock }) { this.#deps = deps; }

  async execute(organizationId: string, eventId: string): Promise<number> {
    const { storage, ids, clock } = this.#deps;
    const event = await storage.outboundEvents.find(organizationId, eventId);
    if (!event) return 0;
    const endpoints = await storage.webhookEndpoints.listSubscribed(organizationId, event.kind);
    if (endpoints.length === 0) return 0;
    return storage.transaction(async (tx) => {
      const now = clock.now();
      const created: WebhookDelivery[] = [];
      for (const endpoint of endpoints) {
        const delivery: WebhookDelivery = {
          id: ids.next(), organizationId, endpointId: endpoint.id, eventId: event.id, kind: event.kind, status: 'PENDING', attempts: 0,
          responseCode: null, lastError: null, nextAttemptAt: now, lastAttemptAt: null, createdAt: now, updatedAt: now,
        };
        if (await tx.webhookDeliveries.insertIfAbsent(delivery)) created.push(delivery);
      }
      await tx.jobs.enqueueMany(QUEUES.webhookDeliver, created.map((d) => ({ data: { deliveryId: d.id, organizationId } })));
      return created.length;
    });
  }
}
