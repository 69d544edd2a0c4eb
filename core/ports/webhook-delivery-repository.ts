import type { WebhookDelivery } from '../domain/webhook.ts';

/**
 * Deliveries of outbound events to webhook endpoints: one row per endpoint and event (unique).
 * Tenant-scoped: reads and writes take the organization.
 */
export interface WebhookDeliveryRepository {
  /** Inserts unless the endpoint already has a delivery of the event; true when inserted. */
  insertIfAbsent(delivery: WebhookDelivery): Promise<boolean>;
  find(organizationId: string, id: string): Promise<WebhookDelivery | null>;
  /** Writes status, attempts and outcome fields; false when the delivery does not exist in the organization. */
  save(delivery: WebhookDelivery): Promise<boolean>;
  /** An endpoint's deliveries, newest first, at most `limit` (capped at 100). */
  listByEndpoint(organizationId: string, endpointId: string, limit: number): Promise<WebhookDelivery[]>;
}
