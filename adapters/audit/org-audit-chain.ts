import { createHash } from 'node:crypto';
import { canonicalJson } from '../../core/domain/canonical-json.ts';
import { chainPayload, type OrgAuditEntry } from '../../core/domain/org-audit.ts';
import type { OrgAuditVerification } from '../../core/ports/org-audit-log.ts';

/** sha256 hex of the previous hash followed by the canonical JSON of the entry (docs/adr/0040-organization-audit-log.md). */
export function entryHash(entry: Omit<OrgAuditEntry, 'hash'>): string {
  return createHash('sha256').update(entry.prevHash).update(canonicalJson(chainPayload(entry))).digest('hex');
}

/**
 * Checks entries of one organization, oldest first, continuing a walk: `state` carries the expected
 * next seq and previous hash between batches (null before the first entry). Returns the first broken
 * link, or null. Shared by every adapter so that all verify alike.
 */
export function checkLinks(entries: readonly OrgAuditEntry[], state: { nextSeq: number | null; prevHash: string | null }): OrgAuditVerification['brokenAt'] {
  for (const e of entries) {
    if (state.nextSeq !== null && e.seq !== state.nextSeq) return { seq: state.nextSeq, id: null, reason: 'missing_entry' };
    if (state.prevHash !== null && e.prevHash !== state.prevHash) return { seq: e.seq, id: e.id, reason: 'prev_hash_mismatch' };
    const { hash, ...rest } = e;
    if (entryHash(rest) !== hash) return { seq: e.seq, id: e.id, reason: 'hash_mismatch' };
    state.nextSeq = e.seq + 1;
    state.prevHash = e.hash;
  }
  return null;
}
