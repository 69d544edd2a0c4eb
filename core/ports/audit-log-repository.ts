/** One administrative action: who did what to which tenant, and when. */
export interface AuditEntry {
  id: string;
  /** The administrator (or user) who acted. */
  actorUserId: string;
  /** Set when the actor acted through an impersonation session: the administrator behind it. */
  impersonatorUserId: string | null;
  /** The tenant concerned, if any. */
  organizationId: string | null;
  /** A dotted verb: 'approval.approve', 'tenant.pause', 'tenant.impersonate', 'wallet.manual_credit' ... */
  action: string;
  /** What was acted on: 'approval:<id>', 'organization:<id>' ... */
  target: string | null;
  /** Extra facts (never secrets). */
  details: Record<string, unknown>;
  createdAt: Date;
}

/** Append-only audit log of administrative actions, readable by platform administrators. */
export interface AuditLogRepository {
  record(entry: AuditEntry): Promise<void>;
  /**
   * Newest first (time, then id), at most `limit` (capped at 200), optionally for one organization.
   * `before` keeps entries older than that time; with `beforeId` too, also the entries of exactly that
   * time whose id sorts before it (a keyset cursor that skips nothing when times tie).
   */
  list(options: { limit: number; organizationId?: string; before?: Date; beforeId?: string }): Promise<AuditEntry[]>;
}
