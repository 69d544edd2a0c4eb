import type { InferEntity } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/sql';
import type { Channel, TemplateCategory } from '../../core/domain/channel.ts';
import { blocks, type PreferenceStats, type Suppression, type SuppressionCandidate, type SuppressionRepository } from '../../core/ports/suppression-repository.ts';
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

  async findMatch(organizationId: string, channel: Channel, recipient: string, category?: TemplateCategory): Promise<Suppression | null> {
    return (await this.findMatches([{ organizationId, channel, recipient, category }]))[0] ?? null;
  }

  /** One query for every candidate's entries (phone or lowercased email); the channel is matched here. */
  async findMatches(candidates: readonly SuppressionCandidate[]): Promise<Array<Suppression | null>> {
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
    return candidates.map(({ organizationId, channel, recipient, category }) => {
      const hits = entries.filter((s) => s.organizationId === organizationId && (s.phone === recipient || s.email === recipient.toLowerCase())
        && blocks(s, channel, category ?? 'TRANSACTIONAL'));
      return hits.find((s) => s.category === null) ?? hits[0] ?? null;
    });
  }

  async findPreferenceEntries(organizationId: string, recipients: readonly string[]): Promise<Suppression[]> {
    if (recipients.length === 0) return [];
    const rows = await sqlRows<Row>(this.#em, `select ${entityColumns(this.#em, SuppressionEntity).selectList} from suppressions
      where organization_id = $1 and category is not null and (phone = any($2::text[]) or email = any($3::text[])) order by created_at, id limit 1000`,
    [organizationId, [...recipients], recipients.map((r) => r.toLowerCase())]);
    return rows.map((row) => toSuppression({ ...row, createdAt: toDate(row.createdAt)! }));
  }

  async removePreference(organizationId: string, channel: Channel, recipient: string, category: TemplateCategory): Promise<boolean> {
    const rows = await sqlRows<{ id: string }>(this.#em, `delete from suppressions where organization_id = $1 and channel = $2 and category = $3
      and (phone = $4 or email = lower($4)) returning id`, [organizationId, channel, category, recipient]);
    return rows.length > 0;
  }

  async preferenceStats(organizationId: string, since: Date): Promise<PreferenceStats> {
    const [byCategory, daily, suppressed] = await Promise.all([
      sqlRows<{ category: TemplateCategory; channel: Channel | null; count: string | number }>(this.#em, `select category, channel, count(*) as count from suppressions
        where organization_id = $1 and category is not null group by category, channel order by count(*) desc, category, channel limit 200`, [organizationId]),
      sqlRows<{ day: string; count: string | number }>(this.#em, `select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as day, count(*) as count from suppressions
        where organization_id = $1 and category is not null and created_at >= $2 group by 1 order by 1 limit 400`, [organizationId, since]),
      sqlRows<{ count: string | number }>(this.#em, 'select count(*) as count from suppressions where organization_id = $1 and category is null', [organizationId]),
    ]);
    return {
      byCategory: byCategory.map((r) => ({ category: r.category, channel: r.channel ?? null, count: Number(r.count) })),
      daily: daily.map((r) => ({ day: r.day, count: Number(r.count) })),
      suppressed: Number(suppressed[0]?.count ?? 0),
    };
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
    channel: (row.channel as Channel | null) ?? null, category: (row.category as TemplateCategory | null) ?? null, reason: row.reason ?? null, createdAt: row.createdAt,
  };
}
