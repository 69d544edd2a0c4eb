import * as v from 'valibot';
import { AppError } from '../../errors.ts';
import { parseInput } from '../../validation.ts';
import { OUTBOUND_EVENT_KINDS, type OutboundEvent, type OutboundEventKind } from '../../domain/outbound-event.ts';
import { webhookDeliveryView, type WebhookDelivery } from '../../domain/webhook.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import { attemptWebhookDelivery, type WebhookAttemptDeps } from './webhook-attempt.ts';

/** Spec "Webhook test": event (optional). */
export const TestWebhookEndpointInput = v.object({
  event: v.optional(v.picklist(OUTBOUND_EVENT_KINDS, `must be one of ${OUTBOUND_EVENT_KINDS.join(', ')}`)),
});

/** Sample `data` of each kind, marked `test: true`. */
const SAMPLES: Record<OutboundEventKind, Record<string, unknown>> = {
  'message.status.updated': {
    messageId: 'test-message', internalMessageId: 'test-message', status: 'DELIVERED', channel: 'SMS', recipient: '+233240000000', errorCode: null,
  },
  'contact.opted_out': { contactId: 'test-contact', phone: '+233240000000', email: null },
  'campaign.completed': { campaignId: 'test-campaign', name: 'Test campaign' },
  'verification.approved': { id: 'test-verification', to: '+233240000000', channel: 'SMS', status: 'APPROVED' },
  'verification.failed': { id: 'test-verification', to: '+233240000000', channel: 'SMS', status: 'MAX_ATTEMPTS' },
  'verification.budget_exceeded': { limit: 1000, windowSeconds: 3600, resetsAt: '2026-01-01T01:00:00.000Z' },
  'message.received': {
    id: 'test-inbound', conversationId: 'test-conversation', contactId: 'test-contact', channel: 'WHATSAPP', from: '+233240000000', to: '233500000000',
    body: 'Hello', receivedAt: '2026-01-01T00:00:00.000Z', keyword: null,
  },
  'workflow.run_failed': {
    runId: 'test-run', eventId: 'test-event', event: 'order.shipped', version: 1, failedStep: 0, errorCode: 'INSUFFICIENT_BALANCE',
    errorMessage: 'The wallet cannot cover the message', attempts: 3, failedAt: '2026-01-01T00:00:00.000Z',
  },
  'message.clicked': {
    messageId: 'test-message', templateId: null, url: 'https://example.com/offer', code: 'AbCdEf012345', clickedAt: '2026-01-01T00:00:00.000Z',
  },
  'message.opened': { messageId: 'test-message', templateId: null, openedAt: '2026-01-01T00:00:00.000Z' },
  'routing.route_shifted': {
    shiftId: 'test-shift', channel: 'SMS', country: 'GH', network: 'MTN', direction: 'away', from: 'provider-a', to: 'provider-b',
    reason: 'slow share 40.0% >= 15.0%', figures: { slowShare: 0.4, deliveryRate: 0.97 }, at: '2026-01-01T00:00:00.000Z',
  },
  'contact.push_token_removed': {
    contactId: 'test-contact', token: 'ExponentPushToken[test]', reason: 'UNREGISTERED', detail: 'Expo: DeviceNotRegistered', messageId: 'test-message',
    internalMessageId: 'test-message', provider: 'expo-push', removedAt: '2026-01-01T00:00:00.000Z',
  },
};

/**
 * POST /webhook-endpoints/{id}/test: sends one signed sample event of the chosen kind (default: the
 * first kind the endpoint subscribes to) right away and answers with the attempt's outcome. The test
 * is recorded as a delivery (listed, replayable) but never retried, and its outcome does not count
 * towards disabling the endpoint. Errors: NOT_FOUND (unknown or inactive endpoint), VALIDATION_ERROR.
 */
export class TestWebhookEndpoint {
  readonly #deps: WebhookAttemptDeps & { ids: IdGenerator };
  constructor(deps: WebhookAttemptDeps & { ids: IdGenerator }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }, id: string, raw: unknown) {
    const input = parseInput(TestWebhookEndpointInput, raw);
    const { storage, ids, clock } = this.#deps;
    const endpoint = await storage.webhookEndpoints.find(scope.organizationId, id);
    if (!endpoint || !endpoint.isActive) throw new AppError('NOT_FOUND', 'No active webhook endpoint with this id');
    const kind = input.event ?? endpoint.events[0] ?? 'message.status.updated';
    const now = clock.now();
    const event: OutboundEvent = { id: ids.next(), organizationId: scope.organizationId, kind, data: { ...SAMPLES[kind], test: true }, occurredAt: now };
    const delivery: WebhookDelivery = {
      id: ids.next(), organizationId: scope.organizationId, endpointId: endpoint.id, eventId: event.id, kind, status: 'PENDING', attempts: 0,
      responseCode: null, lastError: null, nextAttemptAt: null, lastAttemptAt: null, createdAt: now, updatedAt: now,
    };
    await storage.transaction(async (tx) => {
      await tx.outboundEvents.record(event); // recorded only: no fan-out to the organization's other endpoints
      await tx.webhookDeliveries.insertIfAbsent(delivery);
    });
    const outcome = await attemptWebhookDelivery(this.#deps, endpoint, delivery, event, { retry: false, updateEndpoint: false });
    return {
      success: outcome.result.ok, statusCode: outcome.result.statusCode, error: outcome.result.error, durationMs: outcome.result.durationMs,
      event: JSON.parse(JSON.stringify({ id: event.id, kind, organizationId: event.organizationId, occurredAt: now.toISOString(), data: event.data })) as unknown,
      delivery: webhookDeliveryView(outcome.delivery),
    };
  }
}
