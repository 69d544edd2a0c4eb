import type { EntityManager } from '@mikro-orm/sql';
import type { InboundChannel, InboundNumber } from '../../core/domain/conversation.ts';
import type { InboundNumberRepository } from '../../core/ports/inbound-number-repository.ts';
import { translateUniqueViolation } from './db-errors.ts';
import { sqlRows, toDate } from './sql-rows.ts';

interface Row { id: string; organization_id: string; channel: InboundChannel; address: string; created_at: Date | string }
const toNumber = (r: Row): InboundNumber => ({ id: r.id, organizationId: r.organization_id, channel: r.channel, address: r.address, createdAt: toDate(r.created_at)! });

/** `inbound_numbers` (migration 0035). */
export class SqlInboundNumberRepository implements InboundNumberRepository {
  readonly #em: EntityManager;
  constructor(em: EntityManager) { this.#em = em; }

  async insert(n: InboundNumber): Promise<void> {
    await translateUniqueViolation('inbound number', () => sqlRows(this.#em, 'insert into inbound_numbers (id, organization_id, channel, address, created_at) values ($1, $2, $3, $4, $5)',
      [n.id, n.organizationId, n.channel, n.address, n.createdAt]));
  }

  async findByAddress(channel: InboundChannel, address: string): Promise<InboundNumber | null> {
    const rows = await sqlRows<Row>(this.#em, 'select * from inbound_numbers where channel = $1 and address = $2', [channel, address], { prepare: true });
    return rows[0] ? toNumber(rows[0]) : null;
  }

  async list(): Promise<InboundNumber[]> {
    return (await sqlRows<Row>(this.#em, 'select * from inbound_numbers order by created_at desc, id desc limit 500', [])).map(toNumber);
  }

  async delete(id: string): Promise<boolean> {
    return (await sqlRows(this.#em, 'delete from inbound_numbers where id = $1 returning id', [id])).length === 1;
  }
}
