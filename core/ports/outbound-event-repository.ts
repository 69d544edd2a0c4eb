import type { OutboundEvent } from '../domain/outbound-event.ts';

/**
 * The outbox of webhook events. Tenant-scoped: `find` takes the organization first. `record` writes
 * inside the caller's transaction, so an event exists exactly when the change it describes committed.
 */
export interface OutboundEventRepository {
  record(event: OutboundEvent): Promise<void>;
  find(organizationId: string, id: string): Promise<OutboundEvent | null>;
  /**
   * The events named by `keys` (each with its organization: a key whose event belongs to another
   * organization finds nothing), in one statement; unknown keys and repeated keys add nothing. Any order.
   */
  findMany(keys: ReadonlyArray<{ organizationId: string; id: string }>): Promise<OutboundEvent[]>;
  /** Newest first, at most `limit` (capped at 100). */
  listRecent(organizationId: string, limit: number): Promise<OutboundEvent[]>;
}
