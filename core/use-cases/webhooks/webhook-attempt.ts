import type { OutboundEvent } from '../../domain/outbound-event.ts';
import {
  nextRetryDelaySeconds, WEBHOOK_FAILING_DISABLE_MS, webhookPayload, type WebhookDelivery, type WebhookEndpoint,
} from '../../domain/webhook.ts';
import type { Clock } from '../../ports/clock.ts';
import type { CredentialCipher } from '../../ports/credential-cipher.ts';
import type { EmailSender } from '../../ports/email-sender.ts';
import { QUEUES } from '../../ports/job-queue.ts';
import type { Storage } from '../../ports/storage.ts';
import type { WebhookAttemptResult, WebhookSender } from '../../ports/webhook-sender.ts';
import type { WebhookSubscriptions } from '../../ports/webhook-subscriptions.ts';

/** What one delivery attempt needs (shared by the worker's attempts, the test send and replays). */
export interface WebhookAttemptDeps {
  storage: Storage;
  sender: WebhookSender;
  cipher: CredentialCipher;
  clock: Clock;
  email: EmailSender;
  subscriptions?: WebhookSubscriptions;
}

export interface AttemptOutcome {
  delivery: WebhookDelivery;
  result: WebhookAttemptResult;
}

/**
 * Makes one attempt of `delivery` and records its outcome, in one transaction: SUCCEEDED on a 2xx;
 * otherwise PENDING with the next attempt queued on the schedule (WEBHOOK_RETRY_DELAYS_SECONDS), or
 * FAILED once attempts are exhausted (or `retry` is false). 410 Gone deactivates the endpoint; an
 * endpoint failing without a success for WEBHOOK_FAILING_DISABLE_MS is deactivated and the
 * organization's owners are emailed (after the commit).
 */
export async function attemptWebhookDelivery(deps: WebhookAttemptDeps, endpoint: WebhookEndpoint, delivery: WebhookDelivery, event: OutboundEvent,
  options: { retry: boolean; updateEndpoint?: boolean }): Promise<AttemptOutcome> {
  const { storage, sender, cipher, clock } = deps;
  const started = clock.now();
  const graceOpen = endpoint.previousSecretCiphertext !== null && endpoint.previousSecretExpiresAt !== null && endpoint.previousSecretExpiresAt > started;
  const result = await sender.post({
    url: endpoint.url, body: webhookPayload(event), kind: event.kind, eventId: event.id,
    secret: cipher.decrypt(endpoint.secretCiphertext), previousSecret: graceOpen ? cipher.decrypt(endpoint.previousSecretCiphertext!) : null,
  });
  const now = clock.now();
  const attempts = delivery.attempts + 1;
  const next: WebhookDelivery = { ...delivery, attempts, responseCode: result.statusCode, lastError: result.error, lastAttemptAt: now, updatedAt: now };
  let changed: WebhookEndpoint | null = null;
  let disabledForFailing = false;
  if (result.ok) {
    Object.assign(next, { status: 'SUCCEEDED', nextAttemptAt: null, lastError: null });
    if (endpoint.failingSince) changed = { ...endpoint, failingSince: null, updatedAt: now };
  } else {
    const delay = result.statusCode === 410 ? null : nextRetryDelaySeconds(attempts);
    const retrying = options.retry && delay !== null && endpoint.isActive;
    Object.assign(next, retrying ? { status: 'PENDING', nextAttemptAt: new Date(now.getTime() + delay! * 1000) } : { status: 'FAILED', nextAttemptAt: null });
    const failingSince = endpoint.failingSince ?? now;
    changed = { ...endpoint, failingSince, updatedAt: now };
    if (endpoint.isActive && result.statusCode === 410) Object.assign(changed, { isActive: false, disabledReason: 'GONE' });
    else if (endpoint.isActive && now.getTime() - failingSince.getTime() >= WEBHOOK_FAILING_DISABLE_MS) {
      Object.assign(changed, { isActive: false, disabledReason: 'FAILING' });
      disabledForFailing = true;
    }
    if (changed.isActive === false && options.updateEndpoint !== false) Object.assign(next, { status: 'FAILED', nextAttemptAt: null });
  }
  if (options.updateEndpoint === false) { changed = null; disabledForFailing = false; }
  if (!changed && next.status !== 'PENDING') {
    await storage.webhookDeliveries.save(next); // the common success: one statement, no transaction
    return { delivery: next, result };
  }
  await storage.transaction(async (tx) => {
    await tx.webhookDeliveries.save(next);
    if (changed) await tx.webhookEndpoints.save(changed);
    if (next.status === 'PENDING' && next.nextAttemptAt) {
      await tx.jobs.enqueue(QUEUES.webhookDeliver, { deliveryId: next.id, organizationId: next.organizationId },
        { startAfterSeconds: Math.round((next.nextAttemptAt.getTime() - now.getTime()) / 1000) });
    }
  });
  if (changed && changed.isActive !== endpoint.isActive) deps.subscriptions?.invalidate(endpoint.organizationId);
  if (disabledForFailing) await notifyOwners(deps, changed!);
  return { delivery: next, result };
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
