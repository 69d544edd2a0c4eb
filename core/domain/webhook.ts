import { OUTBOUND_EVENT_KINDS, type OutboundEvent, type OutboundEventKind } from './outbound-event.ts';
import type { Message } from './message.ts';

/**
 * A tenant's webhook endpoint. `events` empty means "every kind, including kinds added later"
 * (docs/webhooks.md). The signing secret is stored encrypted; after a rotation the previous secret
 * stays valid (deliveries carry a second signature) until `previousSecretExpiresAt`.
 */
export interface WebhookEndpoint {
  id: string;
  organizationId: string;
  url: string;
  events: OutboundEventKind[];
  isActive: boolean;
  secretCiphertext: string;
  previousSecretCiphertext: string | null;
  previousSecretExpiresAt: Date | null;
  /** Why the service deactivated it (GONE, FAILING); null when active or deactivated by the tenant. */
  disabledReason: string | null;
  /** Start of the current run of failed attempts; null after a success. */
  failingSince: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export const WEBHOOK_DELIVERY_STATUSES = ['PENDING', 'SUCCEEDED', 'FAILED'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/** One event for one endpoint (unique per endpoint and event). */
export interface WebhookDelivery {
  id: string;
  organizationId: string;
  endpointId: string;
  eventId: string;
  kind: OutboundEventKind;
  status: WebhookDeliveryStatus;
  attempts: number;
  responseCode: number | null;
  lastError: string | null;
  nextAttemptAt: Date | null;
  lastAttemptAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** Delay before each retry: attempt 2 waits 5 s after attempt 1 ... attempt 8 is the last (about 27.6 h in all). */
export const WEBHOOK_RETRY_DELAYS_SECONDS = [5, 300, 1_800, 7_200, 18_000, 36_000, 36_000] as const;
export const WEBHOOK_MAX_ATTEMPTS = WEBHOOK_RETRY_DELAYS_SECONDS.length + 1;
/** An endpoint whose attempts have all failed for this long is deactivated and the owner is told. */
export const WEBHOOK_FAILING_DISABLE_MS = 5 * 24 * 3600 * 1000;
/** How long the previous secret stays valid after a rotation. */
export const WEBHOOK_SECRET_GRACE_SECONDS = 24 * 3600;
export const WEBHOOK_TIMEOUT_MS = 10_000;
export const MAX_WEBHOOK_ENDPOINTS = 20;
export const MAX_DELIVERIES_LISTED = 100;

/**
 * A signing secret from 32 random bytes given as URL-safe base64 (Secrets.randomToken): `whsec_`
 * and the same bytes in standard base64 with padding (44 characters), the spelling the Standard
 * Webhooks reference libraries decode into the HMAC key (docs/webhooks.md, "Standard Webhooks").
 */
export function webhookSecretFromToken(base64UrlToken: string): string {
  const standard = base64UrlToken.replace(/-/g, '+').replace(/_/g, '/');
  return `whsec_${standard}${'='.repeat((4 - (standard.length % 4)) % 4)}`;
}

/** Seconds until the next attempt after `attempts` failed attempts, or null when they are exhausted. */
export function nextRetryDelaySeconds(attempts: number): number | null {
  return WEBHOOK_RETRY_DELAYS_SECONDS[attempts - 1] ?? null;
}

export function subscribesTo(endpoint: Pick<WebhookEndpoint, 'events' | 'isActive'>, kind: OutboundEventKind): boolean {
  return endpoint.isActive && (endpoint.events.length === 0 || endpoint.events.includes(kind));
}

/** The JSON body POSTed to endpoints (signed byte for byte). */
export function webhookPayload(event: OutboundEvent): string {
  return JSON.stringify({ id: event.id, kind: event.kind, organizationId: event.organizationId, occurredAt: event.occurredAt.toISOString(), data: event.data });
}

export function webhookEndpointView(e: WebhookEndpoint) {
  return {
    id: e.id, url: e.url, events: e.events, subscribedTo: e.events.length === 0 ? [...OUTBOUND_EVENT_KINDS] : e.events,
    isActive: e.isActive, disabledReason: e.disabledReason, failingSince: e.failingSince?.toISOString() ?? null,
    secretRotationGraceUntil: e.previousSecretExpiresAt?.toISOString() ?? null,
    createdAt: e.createdAt.toISOString(), updatedAt: e.updatedAt.toISOString(),
  };
}

export function webhookDeliveryView(d: WebhookDelivery) {
  return {
    id: d.id, endpointId: d.endpointId, eventId: d.eventId, kind: d.kind, status: d.status, attempts: d.attempts,
    responseCode: d.responseCode, lastError: d.lastError, nextAttemptAt: d.nextAttemptAt?.toISOString() ?? null,
    lastAttemptAt: d.lastAttemptAt?.toISOString() ?? null, createdAt: d.createdAt.toISOString(), updatedAt: d.updatedAt.toISOString(),
  };
}

/** The message.status.updated event of `m`'s current state, for the outbox. */
export function messageStatusUpdatedEvent(id: string, m: Message, occurredAt: Date): OutboundEvent {
  return { id, organizationId: m.organizationId, kind: 'message.status.updated', data: messageStatusEventData(m), occurredAt };
}

/** `data` of a message.status.updated event (docs/webhooks.md). */
export function messageStatusEventData(m: Message): Record<string, unknown> {
  return {
    messageId: m.id, internalMessageId: m.internalMessageId, status: m.status, channel: m.channel, recipient: m.recipient,
    provider: m.provider, errorCode: m.errorCode, errorMessage: m.errorMessage, updatedAt: m.updatedAt.toISOString(),
  };
}
