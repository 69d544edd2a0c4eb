import type { SenderId, SenderIdStatus } from '../domain/sender-id.ts';

/** Sender IDs, tenant-scoped. Names are unique per organization without regard to case. */
export interface SenderIdRepository {
  /** A name the organization already has (any case) is AppError CONFLICT. */
  insert(senderId: SenderId): Promise<void>;
  /**
   * `insert`, unless the organization holds `limit` sender IDs already: false then, nothing written.
   * Counted where the data is, one request at a time per organization (a lock held to the end of the
   * transaction), so concurrent requests in any number of processes never pass the limit.
   */
  insertWithinLimit(senderId: SenderId, limit: number): Promise<boolean>;
  findById(organizationId: string, id: string): Promise<SenderId | null>;
  /** By name, without regard to case. */
  findByName(organizationId: string, name: string): Promise<SenderId | null>;
  /** Several (organization, name) pairs at once, for a batch of sends: keyed by `senderIdKey`. */
  findByNames(pairs: ReadonlyArray<{ organizationId: string; name: string }>): Promise<Map<string, SenderId>>;
  /** Newest first, at most `limit`. */
  list(organizationId: string, limit: number): Promise<SenderId[]>;
  countByOrganization(organizationId: string): Promise<number>;
  /** A new review round for a REJECTED one (same row): back to PENDING with new details. Null when unknown. */
  resubmit(organizationId: string, id: string, changes: Pick<SenderId, 'purpose' | 'sampleMessage' | 'networks' | 'approvalId'>, now: Date): Promise<SenderId | null>;
  setStatus(organizationId: string, id: string, status: SenderIdStatus, comment: string | null, now: Date): Promise<SenderId | null>;
  delete(organizationId: string, id: string): Promise<boolean>;
}

/** The key of an (organization, sender name) pair in `findByNames`' answer. */
export function senderIdKey(organizationId: string, name: string): string {
  return `${organizationId}\u0000${name.toLowerCase()}`;
}
