import type { OutboundEventKind } from '../domain/outbound-event.ts';

/**
 * A fast "does this organization have an active endpoint subscribed to this kind?" for the send
 * path, so organizations without webhooks pay no statement per delivery. May be up to its TTL stale
 * across processes (docs/webhooks.md); `invalidate` refreshes it in this process after a change.
 */
export interface WebhookSubscriptions {
  hasSubscribers(organizationId: string, kind: OutboundEventKind): Promise<boolean>;
  invalidate(organizationId: string): void;
}
