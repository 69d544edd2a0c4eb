import type { Clock } from '../../ports/clock.ts';
import type { Storage } from '../../ports/storage.ts';

/** One verification walks at most this many entries (a bound per request; docs/audit-log.md). */
export const ORG_AUDIT_VERIFY_MAX_ENTRIES = 200_000;

/**
 * GET /audit-log/verify: walks the organization's hash chain oldest first and reports whether every
 * entry still hashes to its stored hash and links to the one before, and otherwise the first broken
 * link (hash_mismatch: the entry was altered; prev_hash_mismatch: the chain was rewritten;
 * missing_entry: an entry was removed outside retention). Entries removed by retention are not
 * missing: the chain starts at the first kept entry (`firstSeq`).
 */
export class VerifyOrgAuditLog {
  readonly #deps: { storage: Pick<Storage, 'orgAuditLog'>; clock: Clock };
  constructor(deps: { storage: Pick<Storage, 'orgAuditLog'>; clock: Clock }) { this.#deps = deps; }

  async execute(organizationId: string) {
    const result = await this.#deps.storage.orgAuditLog.verify(organizationId, ORG_AUDIT_VERIFY_MAX_ENTRIES);
    return { ...result, complete: result.checked < ORG_AUDIT_VERIFY_MAX_ENTRIES || !result.valid, verifiedAt: this.#deps.clock.now().toISOString() };
  }
}
