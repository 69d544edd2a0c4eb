import type { OrgAuditEntry, OrgAuditRecord } from '../../core/domain/org-audit.ts';
import { GENESIS_HASH } from '../../core/domain/org-audit.ts';
import type { OrgAuditLogRepository, OrgAuditQuery, OrgAuditVerification } from '../../core/ports/org-audit-log.ts';
import type { IdGenerator } from '../../core/ports/id-generator.ts';
import { checkLinks, entryHash } from '../audit/org-audit-chain.ts';
import { copy, type MemoryState } from './memory-state.ts';

/** The organization's audit log in memory: the same chain as PostgreSQL (one process, so appends never interleave). */
export class InMemoryOrgAuditLog implements OrgAuditLogRepository {
  readonly #state: MemoryState;
  readonly #ids: IdGenerator;
  constructor(state: MemoryState, ids: IdGenerator) { this.#state = state; this.#ids = ids; }

  async append(record: OrgAuditRecord): Promise<OrgAuditEntry> {
    const head = this.#state.orgAuditHeads.get(record.organizationId) ?? { seq: 0, hash: GENESIS_HASH, purgedThrough: 0 };
    const unhashed = { ...copy(record), id: this.#ids.next(), seq: head.seq + 1, prevHash: head.hash };
    const entry: OrgAuditEntry = { ...unhashed, hash: entryHash(unhashed) };
    this.#state.orgAuditLog.push(entry);
    this.#state.orgAuditHeads.set(record.organizationId, { ...head, seq: entry.seq, hash: entry.hash });
    return copy(entry);
  }

  async list(organizationId: string, q: OrgAuditQuery, limit: number): Promise<OrgAuditEntry[]> {
    return this.#matching(organizationId, q).slice(0, Math.min(limit, 500)).map(copy);
  }

  #matching(organizationId: string, q: OrgAuditQuery): OrgAuditEntry[] {
    const actorId = (e: OrgAuditEntry) => (e.actor.type === 'api_key' ? e.actor.apiKeyId : e.actor.userId);
    return this.#state.orgAuditLog
      .filter((e) => e.organizationId === organizationId
        && (q.actorId === undefined || actorId(e) === q.actorId) && (q.action === undefined || e.action === q.action)
        && (q.targetType === undefined || e.targetType === q.targetType) && (q.targetId === undefined || e.targetId === q.targetId)
        && (q.from === undefined || e.occurredAt >= q.from) && (q.to === undefined || e.occurredAt < q.to)
        && (q.beforeSeq === undefined || e.seq < q.beforeSeq))
      .sort((a, b) => b.seq - a.seq);
  }

  async countUpTo(organizationId: string, q: OrgAuditQuery, upTo: number): Promise<number> {
    return Math.min(upTo, this.#matching(organizationId, q).length);
  }

  async verify(organizationId: string, maxEntries: number): Promise<OrgAuditVerification> {
    const entries = this.#state.orgAuditLog.filter((e) => e.organizationId === organizationId).sort((a, b) => a.seq - b.seq).slice(0, maxEntries);
    const head = this.#state.orgAuditHeads.get(organizationId);
    const state = { nextSeq: head ? head.purgedThrough + 1 : null, prevHash: null as string | null };
    const brokenAt = checkLinks(entries, state) ?? (head && entries.length < maxEntries && (state.nextSeq ?? 1) <= head.seq
      ? { seq: state.nextSeq ?? 1, id: null, reason: 'missing_entry' as const } : null);
    return { valid: brokenAt === null, checked: entries.length, firstSeq: entries[0]?.seq ?? null, lastSeq: entries.at(-1)?.seq ?? null, brokenAt };
  }

  async purgeOlderThan(organizationId: string, cutoff: Date): Promise<number> {
    const gone = this.#state.orgAuditLog.filter((e) => e.organizationId === organizationId && e.occurredAt < cutoff);
    if (gone.length === 0) return 0;
    this.#state.orgAuditLog = this.#state.orgAuditLog.filter((e) => !gone.includes(e));
    const head = this.#state.orgAuditHeads.get(organizationId)!;
    this.#state.orgAuditHeads.set(organizationId, { ...head, purgedThrough: Math.max(head.purgedThrough, ...gone.map((e) => e.seq)) });
    return gone.length;
  }
}
