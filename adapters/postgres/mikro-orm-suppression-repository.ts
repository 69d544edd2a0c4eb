import type { InferEntity } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/sql';
import type { Channel } from '../../core/domain/channel.ts';
import type { Suppression, SuppressionRepository } from '../../core/ports/suppression-repository.ts';
import { translateUniqueViolation } from './db-errors.ts';
import { SuppressionEntity } from './entities/suppression-entity.ts';
import { entityColumns, sqlRows, toDate } from './sql-rows.ts';

type Row = InferEntity<typeof SuppressionEntity>;

export class MikroOrmSuppressionRepository implements SuppressionRepository {
  readonly #em: EntityManager;
  constructor(em: EntityManager) { this.#em = em; }

  async insert(entry: Suppression): Promise<void> {
    await translateUniqueViolation('suppression entry', () => this.#em.insert(SuppressionEntity, { ...entry }));
  }

  async findMatch(organizationId: string, channel: Channel, recipient: string): Promise<Suppression | null> {
    return (await this.findMatches([{ organizationId, channel, recipient }]))[0] ?? null;
  }

  /** One query for every candidate's entries (phone or lowercased email); the channel is matched here. */
  async findMatches(candidates: ReadonlyArray<{ organizationId: string; channel: Channel; recipient: string }>): Promise<Array<Suppression | null>> {
    if (candidates.length === 0) return [];
    // One probe per (organization, recipient) pair, as a phone and as an email: never the cross product of a shared batch.
    const pairs = [...new Map(candidates.map((c) => [`${c.organizationId}\u0000${c.recipient}`, c])).values()];
    const rows = await sqlRows<Row>(this.#em,
      `select ${entityColumns(this.#em, SuppressionEntity).selectList} from unnest($1::text[], $2::text[]) as p (org, rcpt)
         join suppressions on organization_id = p.org and phone = p.rcpt
       union
       select ${entityColumns(this.#em, SuppressionEntity).selectList} from unnest($1::text[], $3::text[]) as p (org, rcpt)
         join suppressions on organization_id = p.org and email = p.rcpt`,
      [pairs.map((c) => c.organizationId), pairs.map((c) => c.recipient), pairs.map((c) => c.recipient.toLowerCase())]);
    const entries = rows.map((row) => toSuppression({ ...row, createdAt: toDate(row.createdAt)! }));
    return candidates.map(({ organizationId, channel, recipient }) => entries.find((s) => s.organizationId === organizationId
      && (s.channel === null || s.channel === channel) && (s.phone === recipient || s.email === recipient.toLowerCase())) ?? null);
  }

  async list(organizationId: string, offset: number, limit: number): Promise<{ items: Suppression[]; total: number }> {
    const [rows, total] = await Promise.all([
      this.#em.find(SuppressionEntity, { organizationId }, { orderBy: { createdAt: 'desc', id: 'desc' }, offset, limit, disableIdentityMap: true }),
      this.#em.fork().count(SuppressionEntity, { organizationId }),
    ]);
    return { items: rows.map(toSuppression), total };
  }

  async remove(organizationId: string, id: string): Promise<boolean> {
    return (await this.#em.nativeDelete(SuppressionEntity, { organizationId, id })) === 1;
  }
}

function toSuppression(row: Row): Suppression {
  return {
    id: row.id, organizationId: row.organizationId, phone: row.phone ?? null, email: row.email ?? null,
    channel: (row.channel as Channel | null) ?? null, reason: row.reason ?? null, createdAt: row.createdAt,
  };
}
