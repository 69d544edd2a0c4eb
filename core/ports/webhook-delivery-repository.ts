import type { WebhookDelivery } from '../domain/webhook.ts';

/**
 * Deliveries of outbound events to webhook endpoints: one row per endpoint and event (unique).
 * Tenant-scoped: reads and writes take the organization.
 */
export interface WebhookDeliveryRepository {
  /** Inserts unless the endpoint already has a delivery of the event; true when inserted. */
  insertIfAbsent(delivery: WebhookDelivery): Promise<boolean>;
  /**
   * The set-based `insertIfAbsent` of a fan-out, in one statement: inserts each delivery whose endpoint
   * has none of its event yet, and returns the stored delivery of every given (endpoint, event) pair of
   * the same organization: the new row, or the one that existed before (a repeated fan-out). Any order.
   */
  insertOrFindMany(deliveries: readonly WebhookDelivery[]): Promise<WebhookDelivery[]>;
  find(organizationId: string, id: string): Promise<WebhookDelivery | null>;
  /** The deliveries named by `keys`, each within the organization its key names, in one statement; repeated keys add nothing. Any order. */
  findMany(keys: ReadonlyArray<{ organizationId: string; id: string }>): Promise<WebhookDelivery[]>;
  /** Writes status, attempts and outcome fields; false when the delivery does not exist in the organization. */
  save(delivery: WebhookDelivery): Promise<boolean>;
  /** `save` of many deliveries in one statement (each within its own organization); the number written. */
  saveMany(deliveries: readonly WebhookDelivery[]): Promise<number>;
  /** An endpoint's deliveries, newest first, at most `limit` (capped at 100). */
  listByEndpoint(organizationId: string, endpointId: string, limit: number): Promise<WebhookDelivery[]>;
}
