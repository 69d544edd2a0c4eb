import type { EntityManager } from '@mikro-orm/sql';
import type { OutboundEvent, OutboundEventKind } from '../../core/domain/outbound-event.ts';
import type { OutboundEventRepository } from '../../core/ports/outbound-event-repository.ts';
import { sqlRows, toDate } from './sql-rows.ts';

interface Row { id: string; organization_id: string; kind: string; data: Record<string, unknown> | string; occurred_at: Date | string }

function toEvent(r: Row): OutboundEvent {
  return {
    id: r.id, organizationId: r.organization_id, kind: r.kind as OutboundEventKind,
    data: typeof r.data === 'string' ? (JSON.parse(r.data) as Record<string, unknown>) : r.data, occurredAt: toDate(r.occurred_at)!,
  };
}

export class SqlOutboundEventRepository implements OutboundEventRepository {
  readonly #em: EntityManager;
  constructor(em: EntityManager) { this.#em = em; }

  async record(e: OutboundEvent): Promise<void> {
    await sqlRows(this.#em, 'insert into outbound_events (id, organization_id, kind, data, occurred_at) values ($1, $2, $3, $4::jsonb, $5)',
      [e.id, e.organizationId, e.kind, JSON.stringify(e.data), e.occurredAt], { prepare: true });
  }

  async find(organizationId: string, id: string): Promise<OutboundEvent | null> {
    const rows = await sqlRows<Row>(this.#em, 'select * from outbound_events where organization_id = $1 and id = $2', [organizationId, id]);
    return rows[0] ? toEvent(rows[0]) : null;
  }

  async findMany(keys: ReadonlyArray<{ organizationId: string; id: string }>): Promise<OutboundEvent[]> {
    if (keys.length === 0) return [];
    const rows = await sqlRows<Row>(this.#em, `select * from outbound_events where (organization_id, id) in
      (select * from unnest($1::text[], $2::text[]))`, [keys.map((k) => k.organizationId), keys.map((k) => k.id)], { prepare: true });
    return rows.map(toEvent);
  }

  async listRecent(organizationId: string, limit: number): Promise<OutboundEvent[]> {
    const rows = await sqlRows<Row>(this.#em, 'select * from outbound_events where organization_id = $1 order by occurred_at desc, id desc limit $2',
      [organizationId, Math.min(limit, 100)]);
    return rows.map(toEvent);
  }
}
