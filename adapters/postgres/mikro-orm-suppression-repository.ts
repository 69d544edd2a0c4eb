import type { InferEntity } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/sql';
import type { Channel } from '../../core/domain/channel.ts';
import type { Suppression, SuppressionRepository } from '../../core/ports/suppression-repository.ts';
import { translateUniqueViolation } from './db-errors.ts';
import { SuppressionEntity } from './entities/suppression-entity.ts';

type Row = InferEntity<typeof SuppressionEntity>;

export class MikroOrmSuppressionRepository implements SuppressionRepository {
  readonly #em: EntityManager;
  constructor(em: EntityManager) { this.#em = em; }

  async insert(entry: Suppression): Promise<void> {
    await translateUniqueViolation('suppression entry', () => this.#em.insert(SuppressionEntity, { ...entry }));
  }

  async findMatch(organizationId: string, channel: Channel, recipient: string): Promise<Suppression | null> {
    const row = await this.#em.findOne(SuppressionEntity, {
      organizationId,
      $and: [{ $or: [{ channel: null }, { channel }] }, { $or: [{ phone: recipient }, { email: recipient.toLowerCase() }] }],
    }, { disableIdentityMap: true });
    return row ? toSuppression(row) : null;
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
