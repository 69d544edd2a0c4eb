import { nextRetryDelaySeconds, WEBHOOK_FAILING_DISABLE_MS, type WebhookDelivery, type WebhookEndpoint } from './webhook.ts';

/** What an attempt's HTTP exchange came to (the sender's result, without timings). */
export interface WebhookAttemptAnswer {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
}

/** The state one attempt leads to. */
export interface WebhookAttemptOutcome {
  delivery: WebhookDelivery;
  /** The endpoint after the attempt: failing streak, deactivation. The given object when unchanged. */
  endpoint: WebhookEndpoint;
  endpointChanged: boolean;
  /** Deactivated by this attempt for failing WEBHOOK_FAILING_DISABLE_MS: the owners are to be told. */
  disabledForFailing: boolean;
}

/**
 * The delivery rules of docs/webhooks.md as one pure function: SUCCEEDED on a 2xx (and the endpoint's
 * failing streak reset); otherwise PENDING until the next attempt of the schedule, or FAILED once
 * attempts are exhausted or `retry` is false. 410 Gone deactivates the endpoint (GONE), and so does a
 * failure WEBHOOK_FAILING_DISABLE_MS or more into a failing streak (FAILING); a delivery of an endpoint
 * deactivated (now or before) is FAILED. With `updateEndpoint` false (test sends) the endpoint is left
 * as it is. Several attempts of one endpoint are folded by passing each outcome's endpoint to the next.
 */
export function webhookAttemptOutcome(endpoint: WebhookEndpoint, delivery: WebhookDelivery, answer: WebhookAttemptAnswer, now: Date,
  options: { retry: boolean; updateEndpoint: boolean }): WebhookAttemptOutcome {
  const attempts = delivery.attempts + 1;
  const base = { ...delivery, attempts, responseCode: answer.statusCode, lastError: answer.error, lastAttemptAt: now, updatedAt: now };
  if (answer.ok) {
    const next: WebhookDelivery = { ...base, status: 'SUCCEEDED', nextAttemptAt: null, lastError: null };
    if (!options.updateEndpoint || !endpoint.failingSince) return { delivery: next, endpoint, endpointChanged: false, disabledForFailing: false };
    return { delivery: next, endpoint: { ...endpoint, failingSince: null, updatedAt: now }, endpointChanged: true, disabledForFailing: false };
  }
  const delay = answer.statusCode === 410 ? null : nextRetryDelaySeconds(attempts);
  const retrying = options.retry && delay !== null && endpoint.isActive;
  const next: WebhookDelivery = retrying
    ? { ...base, status: 'PENDING', nextAttemptAt: new Date(now.getTime() + delay! * 1000) }
    : { ...base, status: 'FAILED', nextAttemptAt: null };
  if (!options.updateEndpoint) return { delivery: next, endpoint, endpointChanged: false, disabledForFailing: false };
  const failingSince = endpoint.failingSince ?? now;
  const changed: WebhookEndpoint = { ...endpoint, failingSince, updatedAt: now };
  let disabledForFailing = false;
  if (endpoint.isActive && answer.statusCode === 410) Object.assign(changed, { isActive: false, disabledReason: 'GONE' });
  else if (endpoint.isActive && now.getTime() - failingSince.getTime() >= WEBHOOK_FAILING_DISABLE_MS) {
    Object.assign(changed, { isActive: false, disabledReason: 'FAILING' });
    disabledForFailing = true;
  }
  const delivered = changed.isActive ? next : { ...next, status: 'FAILED' as const, nextAttemptAt: null };
  return { delivery: delivered, endpoint: changed, endpointChanged: true, disabledForFailing };
}
