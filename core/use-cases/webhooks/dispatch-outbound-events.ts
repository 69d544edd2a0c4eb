import { subscribesTo, type WebhookDelivery } from '../../domain/webhook.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import { attemptWebhookDeliveries, type WebhookAttempt, type WebhookAttemptDeps } from './webhook-attempt.ts';

/** One webhook-dispatch job: a recorded outbound event of an organization. */
export interface DispatchJob {
  organizationId: string;
  eventId: string;
}

export interface DispatchSummary {
  /** Events found (a job naming an unknown event, or another organization's, finds none). */
  events: number;
  /** Deliveries created by this call (a repeated job creates none). */
  created: number;
  /** First attempts made. */
  attempted: number;
  succeeded: number;
}

/** A delivery that has never been attempted: created by a fan-out whose first attempt did not get recorded. */
function neverAttempted(d: WebhookDelivery): boolean {
  return d.status === 'PENDING' && d.attempts === 0 && d.lastAttemptAt === null;
}

/**
 * The webhook-dispatch jobs of a fetched batch: fans each recorded outbound event out to its
 * organization's active endpoints subscribed to its kind, one delivery per endpoint and event
 * (unique), and makes every delivery's first attempt right away (webhook-attempt.ts records the
 * outcomes and queues retries as webhook-deliver jobs). Set-based: the events, the endpoints and the
 * fan-out are one statement each for the whole batch, the outcomes one more when all succeed.
 *
 * Idempotent: a repeated job creates no delivery twice, and attempts again only deliveries that exist
 * but were never attempted (the run that created them stopped before recording its attempt), so a
 * first attempt is sent twice only when a run stopped between the request and its record (at least
 * once, docs/webhooks.md).
 */
export class DispatchOutboundEvents {
  readonly #deps: WebhookAttemptDeps & { ids: IdGenerator; concurrency?: number };
  constructor(deps: WebhookAttemptDeps & { ids: IdGenerator; concurrency?: number }) { this.#deps = deps; }

  async execute(jobs: readonly DispatchJob[]): Promise<DispatchSummary> {
    const { storage, ids, clock } = this.#deps;
    const events = await storage.outboundEvents.findMany(jobs.map((j) => ({ organizationId: j.organizationId, id: j.eventId })));
    const summary: DispatchSummary = { events: events.length, created: 0, attempted: 0, succeeded: 0 };
    if (events.length === 0) return summary;
    const endpoints = await storage.webhookEndpoints.listActive([...new Set(events.map((e) => e.organizationId))]);
    const now = clock.now();
    const planned = events.flatMap((event) => endpoints.filter((e) => e.organizationId === event.organizationId && subscribesTo(e, event.kind))
      .map((endpoint): WebhookDelivery => ({
        id: ids.next(), organizationId: event.organizationId, endpointId: endpoint.id, eventId: event.id, kind: event.kind, status: 'PENDING', attempts: 0,
        responseCode: null, lastError: null, nextAttemptAt: now, lastAttemptAt: null, createdAt: now, updatedAt: now,
      })));
    if (planned.length === 0) return summary;
    const plannedIds = new Set(planned.map((d) => d.id));
    const stored = await storage.webhookDeliveries.insertOrFindMany(planned);
    summary.created = stored.filter((d) => plannedIds.has(d.id)).length;
    const endpointById = new Map(endpoints.map((e) => [e.id, e]));
    const eventById = new Map(events.map((e) => [e.id, e]));
    // In the order of the jobs, then of the endpoints (oldest first), as they were planned.
    const order = new Map(planned.map((d, index) => [`${d.endpointId}\n${d.eventId}`, index]));
    const attempts: WebhookAttempt[] = stored.filter(neverAttempted)
      .sort((a, b) => order.get(`${a.endpointId}\n${a.eventId}`)! - order.get(`${b.endpointId}\n${b.eventId}`)!)
      .map((delivery) => ({ delivery, endpoint: endpointById.get(delivery.endpointId)!, event: eventById.get(delivery.eventId)! }));
    const outcomes = await attemptWebhookDeliveries(this.#deps, attempts, { retry: true, concurrency: this.#deps.concurrency ?? 10 });
    summary.attempted = outcomes.length;
    summary.succeeded = outcomes.filter((o) => o.delivery.status === 'SUCCEEDED').length;
    return summary;
  }
}
