import type { EntityManager } from '@mikro-orm/sql';
import type { SenderId, SenderIdNetwork, SenderIdStatus } from '../../core/domain/sender-id.ts';
import { senderIdKey, type SenderIdRepository } from '../../core/ports/sender-id-repository.ts';
import { translateUniqueViolation } from './db-errors.ts';
import { sqlRows } from './sql-rows.ts';
import { countOf, underLimitLock } from './organization-lock.ts';

interface Row {
  id: string; organization_id: string; name: string; purpose: string; sample_message: string; networks: SenderIdNetwork[] | string;
  status: SenderIdStatus; approval_id: string | null; review_comment: string | null; created_at: Date | string; updated_at: Date | string;
}

/** `sender_ids` (migration 0017): unique per organization on lower(name). */
export class SqlSenderIdRepository implements SenderIdRepository {
  readonly #em: EntityManager;
  constructor(em: EntityManager) { this.#em = em; }

  async insert(s: SenderId): Promise<void> {
    await translateUniqueViolation('sender ID', () => sqlRows(this.#em, `insert into sender_ids
      (id, organization_id, name, purpose, sample_message, networks, status, approval_id, review_comment, created_at, updated_at)
      values ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9, $10, $11)`,
    [s.id, s.organizationId, s.name, s.purpose, s.sampleMessage, JSON.stringify(s.networks), s.status, s.approvalId, s.reviewComment, s.createdAt, s.updatedAt]));
  }

  async insertWithinLimit(s: SenderId, limit: number): Promise<boolean> {
    return underLimitLock(this.#em, 'sender-ids', s.organizationId, async (em) => {
      if (await countOf(em, 'select count(*) as n from sender_ids where organization_id = $1', [s.organizationId]) >= limit) return false;
      await new SqlSenderIdRepository(em).insert(s);
      return true;
    });
  }

  async findById(organizationId: string, id: string): Promise<SenderId | null> {
    const [row] = await sqlRows<Row>(this.#em, 'select * from sender_ids where organization_id = $1 and id = $2', [organizationId, id]);
    return row ? toSenderId(row) : null;
  }

  async findByName(organizationId: string, name: string): Promise<SenderId | null> {
    const [row] = await sqlRows<Row>(this.#em, 'select * from sender_ids where organization_id = $1 and lower(name) = lower($2)', [organizationId, name], { prepare: true });
    return row ? toSenderId(row) : null;
  }

  async findByNames(pairs: ReadonlyArray<{ organizationId: string; name: string }>): Promise<Map<string, SenderId>> {
    if (pairs.length === 0) return new Map();
    const rows = await sqlRows<Row>(this.#em, `select s.* from sender_ids s
      join unnest($1::text[], $2::text[]) as p (organization_id, name) on s.organization_id = p.organization_id and lower(s.name) = lower(p.name)`,
    [pairs.map((p) => p.organizationId), pairs.map((p) => p.name)]);
    return new Map(rows.map((r) => [senderIdKey(r.organization_id, r.name), toSenderId(r)]));
  }

  async list(organizationId: string, limit: number): Promise<SenderId[]> {
    const rows = await sqlRows<Row>(this.#em, 'select * from sender_ids where organization_id = $1 order by created_at desc, id desc limit $2', [organizationId, limit]);
    return rows.map(toSenderId);
  }

  async countByOrganization(organizationId: string): Promise<number> {
    const [row] = await sqlRows<{ n: string }>(this.#em, 'select count(*)::text as n from sender_ids where organization_id = $1', [organizationId]);
    return Number(row?.n ?? 0);
  }

  async resubmit(organizationId: string, id: string, changes: Pick<SenderId, 'purpose' | 'sampleMessage' | 'networks' | 'approvalId'>, now: Date): Promise<SenderId | null> {
    const [row] = await sqlRows<Row>(this.#em, `update sender_ids set purpose = $3, sample_message = $4, networks = $5::jsonb, approval_id = $6,
      status = 'PENDING', review_comment = null, updated_at = $7 where organization_id = $1 and id = $2 returning *`,
    [organizationId, id, changes.purpose, changes.sampleMessage, JSON.stringify(changes.networks), changes.approvalId, now]);
    return row ? toSenderId(row) : null;
  }

  async setStatus(organizationId: string, id: string, status: SenderIdStatus, comment: string | null, now: Date): Promise<SenderId | null> {
    const [row] = await sqlRows<Row>(this.#em, `update sender_ids set status = $3, review_comment = $4, updated_at = $5
      where organization_id = $1 and id = $2 returning *`, [organizationId, id, status, comment, now]);
    return row ? toSenderId(row) : null;
  }

  async delete(organizationId: string, id: string): Promise<boolean> {
    return (await sqlRows(this.#em, 'delete from sender_ids where organization_id = $1 and id = $2 returning id', [organizationId, id])).length === 1;
  }
}

function toSenderId(r: Row): SenderId {
  return {
    id: r.id, organizationId: r.organization_id, name: r.name, purpose: r.purpose, sampleMessage: r.sample_message,
    networks: typeof r.networks === 'string' ? JSON.parse(r.networks) as SenderIdNetwork[] : r.networks, status: r.status,
    approvalId: r.approval_id, reviewComment: r.review_comment, createdAt: new Date(r.created_at), updatedAt: new Date(r.updated_at),
  };
}
