import type { OrgAuditAction, OrgAuditEntry, OrgAuditRecord } from '../domain/org-audit.ts';

/** Filters of a page of the organization's audit log; every one optional. */
export interface OrgAuditQuery {
  /** A member's or staff user id, or an API key id. */
  actorId?: string;
  action?: OrgAuditAction;
  targetType?: string;
  targetId?: string;
  /** occurredAt >= from */
  from?: Date;
  /** occurredAt < to */
  to?: Date;
  /** Keyset cursor: only entries with a smaller seq (older). */
  beforeSeq?: number;
}

/** The outcome of walking an organization's chain, oldest first. */
export interface OrgAuditVerification {
  /** True when every link checked out. */
  valid: boolean;
  /** Entries checked. */
  checked: number;
  /** The first seq still stored (greater than 1 after retention removed older entries), null when empty. */
  firstSeq: number | null;
  lastSeq: number | null;
  /** The first broken link, null when valid. */
  brokenAt: { seq: number; id: string | null; reason: 'hash_mismatch' | 'prev_hash_mismatch' | 'missing_entry' } | null;
}

/**
 * The organization's audit log (docs/audit-log.md, docs/adr/0040-organization-audit-log.md).
 *
 * Tenancy: every method takes the organization first; nothing crosses organizations.
 * Append-only: there is no update or delete; the PostgreSQL table refuses both (a trigger), except
 * for the retention function (`purgeOlderThan`).
 * Chain: `append` gives the entry the organization's next seq, prevHash = the last entry's hash,
 * hash = sha256(prevHash + canonical JSON of the entry). Appends of one organization are serialized
 * (a row lock on the chain head), so concurrent appends never fork the chain. Inside
 * `Storage.transaction` the entry commits or rolls back with the other writes.
 */
export interface OrgAuditLogRepository {
  append(record: OrgAuditRecord): Promise<OrgAuditEntry>;
  /** Newest first (seq descending), at most `limit` (capped at 500). */
  list(organizationId: string, query: OrgAuditQuery, limit: number): Promise<OrgAuditEntry[]>;
  /** How many entries match, counting no further than `upTo` (the export's truncation check). */
  countUpTo(organizationId: string, query: OrgAuditQuery, upTo: number): Promise<number>;
  /** Walks the chain oldest first in batches and reports the first broken link (at most `maxEntries` checked). */
  verify(organizationId: string, maxEntries: number): Promise<OrgAuditVerification>;
  /**
   * Retention: removes the organization's entries that occurred before `cutoff` (the only removal path;
   * the chain then starts at the first kept entry, whose prevHash stays as the anchor). Returns the count.
   */
  purgeOlderThan(organizationId: string, cutoff: Date): Promise<number>;
}
