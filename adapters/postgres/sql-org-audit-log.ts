import type { EntityManager } from '@mikro-orm/sql';
import { GENESIS_HASH, type OrgAuditAction, type OrgAuditActor, type OrgAuditEntry, type OrgAuditRecord } from '../../core/domain/org-audit.ts';
import type { IdGenerator } from '../../core/ports/id-generator.ts';
import type { OrgAuditLogRepository, OrgAuditQuery, OrgAuditVerification } from '../../core/ports/org-audit-log.ts';
import { checkLinks, entryHash } from '../audit/org-audit-chain.ts';
import { sqlRows, toDate } from './sql-rows.ts';

interface Row {
  id: string; organization_id: string; seq: string | number; occurred_at: Date | string; actor: OrgAuditActor | string; client_address: string | null;
  action: string; target_type: string; target_id: string | null; changes: OrgAuditEntry['changes'] | string; request_id: string | null;
  prev_hash: string; hash: string;
}

const json = <T>(value: T | string): T => (typeof value === 'string' ? JSON.parse(value) as T : value);

function toEntry(r: Row): OrgAuditEntry {
  return {
    id: r.id, organizationId: r.organization_id, seq: Number(r.seq), occurredAt: toDate(r.occurred_at)!, actor: json(r.actor),
    clientAddress: r.client_address, action: r.action as OrgAuditAction, targetType: r.target_type, targetId: r.target_id,
    changes: json(r.changes), requestId: r.request_id, prevHash: r.prev_hash, hash: r.hash,
  };
}

const actorIdOf = (a: OrgAuditActor) => (a.type === 'api_key' ? a.apiKeyId : a.userId);
const VERIFY_BATCH = 1_000;

/** The filters ($1 to $8) of list and countUpTo. */
const MATCHING = `organization_id = $1
  and ($2::text is null or actor_id = $2) and ($3::text is null or action = $3)
  and ($4::text is null or target_type = $4) and ($5::text is null or target_id = $5)
  and ($6::timestamptz is null or occurred_at >= $6) and ($7::timestamptz is null or occurred_at < $7)
  and ($8::bigint is null or seq < $8)`;

function matchingParams(organizationId: string, q: OrgAuditQuery): unknown[] {
  return [organizationId, q.actorId ?? null, q.action ?? null, q.targetType ?? null, q.targetId ?? null, q.from ?? null, q.to ?? null, q.beforeSeq ?? null];
}

/**
 * The organization's audit log on PostgreSQL/PGlite (migration 0058). An append locks the
 * organization's chain head row, so appends of one organization queue behind each other and each
 * links to the one before; inside a Storage transaction the lock is held until that commits.
 */
export class SqlOrgAuditLog implements OrgAuditLogRepository {
  readonly #em: EntityManager;
  readonly #ids: IdGenerator;
  constructor(em: EntityManager, ids: IdGenerator) { this.#em = em; this.#ids = ids; }

  async append(record: OrgAuditRecord): Promise<OrgAuditEntry> {
    const run = async (em: EntityManager) => {
      await sqlRows(em, 'insert into org_audit_heads (organization_id, last_seq, last_hash) values ($1, 0, $2) on conflict (organization_id) do nothing',
        [record.organizationId, GENESIS_HASH]);
      const [head] = await sqlRows<{ last_seq: string | number; last_hash: string }>(em,
        'select last_seq, last_hash from org_audit_heads where organization_id = $1 for update', [record.organizationId]);
      const unhashed = { ...record, id: this.#ids.next(), seq: Number(head!.last_seq) + 1, prevHash: head!.last_hash };
      const entry: OrgAuditEntry = { ...unhashed, hash: entryHash(unhashed) };
      await sqlRows(em, `insert into org_audit_log (id, organization_id, seq, occurred_at, actor, actor_id, client_address, action, target_type, target_id,
          changes, request_id, prev_hash, hash) values ($1, $2, $3, $4, $5::jsonb, $6, $7, $8, $9, $10, $11::jsonb, $12, $13, $14)`,
      [entry.id, entry.organizationId, entry.seq, entry.occurredAt, JSON.stringify(entry.actor), actorIdOf(entry.actor), entry.clientAddress,
        entry.action, entry.targetType, entry.targetId, JSON.stringify(entry.changes), entry.requestId, entry.prevHash, entry.hash]);
      await sqlRows(em, 'update org_audit_heads set last_seq = $2, last_hash = $3 where organization_id = $1', [entry.organizationId, entry.seq, entry.hash]);
      return entry;
    };
    return this.#em.isInTransaction() ? run(this.#em) : this.#em.transactional(run);
  }

  async list(organizationId: string, q: OrgAuditQuery, limit: number): Promise<OrgAuditEntry[]> {
    const rows = await sqlRows<Row>(this.#em, `select * from org_audit_log where ${MATCHING} order by seq desc limit $9`,
    [...matchingParams(organizationId, q), Math.min(limit, 500)]);
    return rows.map(toEntry);
  }

  async countUpTo(organizationId: string, q: OrgAuditQuery, upTo: number): Promise<number> {
    const [row] = await sqlRows<{ n: string | number }>(this.#em, `select count(*) as n from (select 1 from org_audit_log where ${MATCHING} limit $9) m`,
      [...matchingParams(organizationId, q), upTo]);
    return Number(row?.n ?? 0);
  }

  async verify(organizationId: string, maxEntries: number): Promise<OrgAuditVerification> {
    const [head] = await sqlRows<{ last_seq: string | number; purged_through: string | number }>(this.#em,
      'select last_seq, purged_through from org_audit_heads where organization_id = $1', [organizationId]);
    const state = { nextSeq: head ? Number(head.purged_through) + 1 : null, prevHash: null as string | null };
    let checked = 0;
    let firstSeq: number | null = null;
    let lastSeq: number | null = null;
    let after = 0;
    while (checked < maxEntries) {
      const rows = await sqlRows<Row>(this.#em, 'select * from org_audit_log where organization_id = $1 and seq > $2 order by seq limit $3',
        [organizationId, after, Math.min(VERIFY_BATCH, maxEntries - checked)]);
      if (rows.length === 0) break;
      const entries = rows.map(toEntry);
      firstSeq ??= entries[0]!.seq;
      const brokenAt = checkLinks(entries, state);
      if (brokenAt) return { valid: false, checked: checked + entries.filter((e) => e.seq < brokenAt.seq).length, firstSeq, lastSeq, brokenAt };
      checked += entries.length;
      lastSeq = entries.at(-1)!.seq;
      after = lastSeq;
    }
    // Entries missing at the end (the head knows more than the table holds).
    if (head && checked < maxEntries && (state.nextSeq ?? 1) <= Number(head.last_seq)) {
      return { valid: false, checked, firstSeq, lastSeq, brokenAt: { seq: state.nextSeq ?? 1, id: null, reason: 'missing_entry' } };
    }
    return { valid: true, checked, firstSeq, lastSeq, brokenAt: null };
  }

  async purgeOlderThan(organizationId: string, cutoff: Date): Promise<number> {
    const [row] = await sqlRows<{ n: number | string }>(this.#em, 'select nkra_purge_org_audit_log($1, $2) as n', [organizationId, cutoff]);
    return Number(row?.n ?? 0);
  }
}
