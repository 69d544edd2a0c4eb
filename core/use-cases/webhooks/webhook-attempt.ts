import type { OutboundEvent } from '../../domain/outbound-event.ts';
import { webhookAttemptOutcome } from '../../domain/webhook-attempt-outcome.ts';
import { webhookPayload, type WebhookDelivery, type WebhookEndpoint } from '../../domain/webhook.ts';
import type { Clock } from '../../ports/clock.ts';
import type { CredentialCipher } from '../../ports/credential-cipher.ts';
import type { EmailSender } from '../../ports/email-sender.ts';
import { QUEUES } from '../../ports/job-queue.ts';
import type { Storage } from '../../ports/storage.ts';
import type { WebhookAttemptResult, WebhookRequest, WebhookSender } from '../../ports/webhook-sender.ts';
import type { WebhookSubscriptions } from '../../ports/webhook-subscriptions.ts';

/** What delivery attempts need (shared by the worker's attempts, the test send and replays). */
export interface WebhookAttemptDeps {
  storage: Storage;
  sender: WebhookSender;
  cipher: CredentialCipher;
  clock: Clock;
  email: EmailSender;
  subscriptions?: WebhookSubscriptions;
}

/** One delivery to attempt, with the endpoint and event it needs. */
export interface WebhookAttempt {
  endpoint: WebhookEndpoint;
  delivery: WebhookDelivery;
  event: OutboundEvent;
}

export interface AttemptOutcome {
  delivery: WebhookDelivery;
  result: WebhookAttemptResult;
}

export interface AttemptOptions {
  /** Schedule the next attempt of a failure (false: a failure is final, as for test sends). */
  retry: boolean;
  /** Apply the failing streak and deactivations to the endpoint (false for test sends). Default true. */
  updateEndpoint?: boolean;
  /** At most this many requests in flight at once. Default 10. */
  concurrency?: number;
}

/**
 * Makes one attempt of each delivery (concurrently, at most `concurrency` at a time; each request is
 * bounded by the sender's timeout) and records the outcomes by the rules of webhookAttemptOutcome:
 * attempts of one endpoint fold into its state in the given order, each changed endpoint is written
 * once. Recording is set-based: one statement when nothing is retried and no endpoint changed (the
 * common success); otherwise one transaction with the deliveries, the changed endpoints and the
 * retries' webhook-deliver jobs (start delay on the schedule). Owners of an endpoint disabled for
 * failing are emailed after the commit. Outcomes come back in the order of `attempts`.
 */
export async function attemptWebhookDeliveries(deps: WebhookAttemptDeps, attempts: readonly WebhookAttempt[], options: AttemptOptions): Promise<AttemptOutcome[]> {
  if (attempts.length === 0) return [];
  const { storage, clock } = deps;
  const requests = signingRequests(deps, attempts);
  const answers = await mapBounded(requests, options.concurrency ?? 10, async (request) => {
    const result = await deps.sender.post(request);
    return { result, at: clock.now() };
  });
  const updateEndpoint = options.updateEndpoint !== false;
  const endpoints = new Map<string, { before: WebhookEndpoint; now: WebhookEndpoint; changed: boolean; disabledForFailing: boolean }>();
  const outcomes = attempts.map((attempt, index): AttemptOutcome => {
    const state = endpoints.get(attempt.endpoint.id) ?? { before: attempt.endpoint, now: attempt.endpoint, changed: false, disabledForFailing: false };
    endpoints.set(attempt.endpoint.id, state);
    const { result, at } = answers[index]!;
    const outcome = webhookAttemptOutcome(state.now, attempt.delivery, result, at, { retry: options.retry, updateEndpoint });
    Object.assign(state, { now: outcome.endpoint, changed: state.changed || outcome.endpointChanged, disabledForFailing: state.disabledForFailing || outcome.disabledForFailing });
    return { delivery: outcome.delivery, result };
  });
  // In id order: two batches that change the same endpoints lock their rows in the same order (no deadlock).
  const changed = [...endpoints.values()].filter((e) => e.changed).sort((a, b) => (a.now.id < b.now.id ? -1 : a.now.id > b.now.id ? 1 : 0));
  const retries = outcomes.map((o, index) => ({ delivery: o.delivery, at: answers[index]!.at })).filter(({ delivery }) => delivery.status === 'PENDING' && delivery.nextAttemptAt);
  const deliveries = outcomes.map((o) => o.delivery);
  if (changed.length === 0 && retries.length === 0) {
    await storage.webhookDeliveries.saveMany(deliveries); // the common success: one statement, no transaction
  } else {
    await storage.transaction(async (tx) => {
      await tx.webhookDeliveries.saveMany(deliveries);
      for (const endpoint of changed) await tx.webhookEndpoints.save(endpoint.now);
      await tx.jobs.enqueueMany(QUEUES.webhookDeliver, retries.map(({ delivery, at }) => ({
        data: { deliveryId: delivery.id, organizationId: delivery.organizationId },
        options: { startAfterSeconds: Math.round((delivery.nextAttemptAt!.getTime() - at.getTime()) / 1000) },
      })));
    });
  }
  for (const endpoint of changed) {
    if (endpoint.now.isActive !== endpoint.before.isActive) deps.subscriptions?.invalidate(endpoint.now.organizationId);
    if (endpoint.disabledForFailing) await notifyOwners(deps, endpoint.now);
  }
  return outcomes;
}

/** One attempt (test sends, retries): attemptWebhookDeliveries of a single delivery. */
export async function attemptWebhookDelivery(deps: WebhookAttemptDeps, endpoint: WebhookEndpoint, delivery: WebhookDelivery, event: OutboundEvent,
  options: AttemptOptions): Promise<AttemptOutcome> {
  return (await attemptWebhookDeliveries(deps, [{ endpoint, delivery, event }], options))[0]!;
}

/** The signed requests, decrypting each endpoint's secrets once (the previous one only while its grace period runs). */
function signingRequests(deps: WebhookAttemptDeps, attempts: readonly WebhookAttempt[]): WebhookRequest[] {
  const started = deps.clock.now();
  const secrets = new Map<string, { secret: string; previousSecret: string | null }>();
  return attempts.map(({ endpoint, event }) => {
    let keys = secrets.get(endpoint.id);
    if (!keys) {
      const graceOpen = endpoint.previousSecretCiphertext !== null && endpoint.previousSecretExpiresAt !== null && endpoint.previousSecretExpiresAt > started;
      keys = { secret: deps.cipher.decrypt(endpoint.secretCiphertext), previousSecret: graceOpen ? deps.cipher.decrypt(endpoint.previousSecretCiphertext!) : null };
      secrets.set(endpoint.id, keys);
    }
    return { url: endpoint.url, body: webhookPayload(event), kind: event.kind, eventId: event.id, ...keys };
  });
}

/** `work` over every item, at most `limit` at a time; results in the order of `items`. */
async function mapBounded<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lane = async () => { while (next < items.length) { const index = next++; results[index] = await work(items[index]!); } };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
  return results;
}

async function notifyOwners(deps: WebhookAttemptDeps, endpoint: WebhookEndpoint): Promise<void> {
  const members = await deps.storage.memberships.listByOrganization(endpoint.organizationId, 100);
  const owners = await deps.storage.users.findManyByIds(members.filter((m) => m.role === 'TENANT_OWNER').map((m) => m.userId));
  for (const owner of owners) {
    await deps.email.send({
      to: owner.email, subject: 'A webhook endpoint was disabled',
      text: `Every delivery to your webhook endpoint ${endpoint.url} (id ${endpoint.id}) has failed since ${endpoint.failingSince?.toISOString()}, `
        + 'so it has been disabled. Fix the receiver, then re-enable it with PATCH /webhook-endpoints/{id} {"isActive": true} and replay the deliveries you need.',
    }).catch(() => undefined); // the endpoint is disabled either way; a lost notice must not undo that
  }
}
