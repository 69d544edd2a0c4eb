import type { OutboundEventKind } from '../domain/outbound-event.ts';
import type { WebhookEndpoint } from '../domain/webhook.ts';

/**
 * Webhook endpoints. Tenant-scoped: every method takes the organization first, and another
 * organization's endpoint is never returned nor changed.
 */
export interface WebhookEndpointRepository {
  insert(endpoint: WebhookEndpoint): Promise<void>;
  /**
   * `insert` (or `save`, for an endpoint that exists: re-activation), unless the endpoint is active and
   * the organization holds `limit` other active endpoints already: LIMIT then, nothing written (and
   * NOT_FOUND for a `save` of an endpoint the organization does not have). Counted one request at a
   * time per organization (a lock held to the end of the transaction), so concurrent requests in any
   * number of processes never pass the limit.
   */
  writeWithinLimit(endpoint: WebhookEndpoint, mode: 'insert' | 'save', limit: number): Promise<'WRITTEN' | 'LIMIT' | 'NOT_FOUND'>;
  find(organizationId: string, id: string): Promise<WebhookEndpoint | null>;
  /** The endpoints named by `keys`, each within the organization its key names, in one statement; repeated keys add nothing. Any order. */
  findMany(keys: ReadonlyArray<{ organizationId: string; id: string }>): Promise<WebhookEndpoint[]>;
  /** Newest first, at most `limit` (capped at 100). */
  list(organizationId: string, limit: number): Promise<WebhookEndpoint[]>;
  /** Writes every field of an existing endpoint of the organization; false when there is none. */
  save(endpoint: WebhookEndpoint): Promise<boolean>;
  /**
   * The active endpoints of each of `organizationIds` (at most MAX_WEBHOOK_ENDPOINTS each, by the
   * creation rule), oldest first, in one statement: the fan-out of a batch of events filters them by kind.
   */
  listActive(organizationIds: readonly string[]): Promise<WebhookEndpoint[]>;
  /** Whether an active endpoint of the organization subscribes to `kind` (lists it, or lists nothing = every kind): one indexed probe. */
  hasSubscribers(organizationId: string, kind: OutboundEventKind): Promise<boolean>;
}
