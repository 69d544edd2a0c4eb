import type { WebhookDelivery } from '../../domain/webhook.ts';
import { attemptWebhookDeliveries, type WebhookAttempt, type WebhookAttemptDeps } from './webhook-attempt.ts';

/** A job that runs more than this before its delivery's next attempt is a stale duplicate. */
const EARLY_SLACK_MS = 1_000;

/** One webhook-deliver job: a retry (or a replay) of one delivery. */
export interface DeliverJob {
  organizationId: string;
  deliveryId: string;
}

/**
 * The webhook-deliver jobs of a fetched batch: the next attempt of each PENDING delivery that is due
 * (webhook-attempt.ts records the outcomes and queues the attempt after). Deliveries no longer
 * PENDING, and jobs that run early, are ignored, so duplicate jobs are harmless; a delivery named by
 * two jobs of one batch is attempted once. A delivery whose endpoint was deactivated meanwhile (or
 * whose event is gone) is FAILED without a request. Set-based: the deliveries, then their endpoints
 * and events, are one statement each for the whole batch. Returns each job's delivery as it is now
 * (null when the organization has no such delivery), in the order of `jobs`.
 */
export class DeliverWebhooks {
  readonly #deps: WebhookAttemptDeps & { concurrency?: number };
  constructor(deps: WebhookAttemptDeps & { concurrency?: number }) { this.#deps = deps; }

  async execute(jobs: readonly DeliverJob[]): Promise<Array<WebhookDelivery | null>> {
    const { storage, clock } = this.#deps;
    const found = await storage.webhookDeliveries.findMany(jobs.map((j) => ({ organizationId: j.organizationId, id: j.deliveryId })));
    const current = new Map(found.map((d) => [d.id, d]));
    const now = clock.now();
    const due = found.filter((d) => d.status === 'PENDING' && !(d.nextAttemptAt && d.nextAttemptAt.getTime() - now.getTime() > EARLY_SLACK_MS));
    if (due.length > 0) {
      const [endpoints, events] = await Promise.all([
        storage.webhookEndpoints.findMany(due.map((d) => ({ organizationId: d.organizationId, id: d.endpointId }))),
        storage.outboundEvents.findMany(due.map((d) => ({ organizationId: d.organizationId, id: d.eventId }))),
      ]);
      const endpointById = new Map(endpoints.map((e) => [e.id, e]));
      const eventById = new Map(events.map((e) => [e.id, e]));
      const attempts: WebhookAttempt[] = [];
      const unusable: WebhookDelivery[] = [];
      for (const delivery of due) {
        const endpoint = endpointById.get(delivery.endpointId);
        const event = eventById.get(delivery.eventId);
        if (endpoint?.isActive && event) attempts.push({ delivery, endpoint, event });
        else unusable.push({ ...delivery, status: 'FAILED', nextAttemptAt: null, lastError: endpoint?.isActive === false ? 'endpoint inactive' : 'event missing', updatedAt: now });
      }
      await storage.webhookDeliveries.saveMany(unusable);
      const outcomes = await attemptWebhookDeliveries(this.#deps, attempts, { retry: true, concurrency: this.#deps.concurrency ?? 10 });
      for (const d of [...unusable, ...outcomes.map((o) => o.delivery)]) current.set(d.id, d);
    }
    return jobs.map((j) => { const d = current.get(j.deliveryId); return d && d.organizationId === j.organizationId ? d : null; });
  }
}
