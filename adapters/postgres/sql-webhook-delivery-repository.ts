import type { EntityManager } from '@mikro-orm/sql';
import type { OutboundEventKind } from '../../core/domain/outbound-event.ts';
import type { WebhookDelivery, WebhookDeliveryStatus } from '../../core/domain/webhook.ts';
import type { WebhookDeliveryRepository } from '../../core/ports/webhook-delivery-repository.ts';
import { sqlRows, toDate } from './sql-rows.ts';

interface Row {
  id: string; organization_id: string; endpoint_id: string; event_id: string; kind: string; status: string; attempts: number;
  response_code: number | null; last_error: string | null; next_attempt_at: Date | string | null; last_attempt_at: Date | string | null;
  created_at: Date | string; updated_at: Date | string;
}

const COLUMNS = `id, organization_id, endpoint_id, event_id, kind, status, attempts, response_code, last_error, next_attempt_at, last_attempt_at,
  created_at, updated_at`;

function toDelivery(r: Row): WebhookDelivery {
  return {
    id: r.id, organizationId: r.organization_id, endpointId: r.endpoint_id, eventId: r.event_id, kind: r.kind as OutboundEventKind,
    status: r.status as WebhookDeliveryStatus, attempts: Number(r.attempts), responseCode: r.response_code === null ? null : Number(r.response_code),
    lastError: r.last_error, nextAttemptAt: toDate(r.next_attempt_at), lastAttemptAt: toDate(r.last_attempt_at),
    createdAt: toDate(r.created_at)!, updatedAt: toDate(r.updated_at)!,
  };
}

export class SqlWebhookDeliveryRepository implements WebhookDeliveryRepository {
  readonly #em: EntityManager;
  constructor(em: EntityManager) { this.#em = em; }

  async insertIfAbsent(d: WebhookDelivery): Promise<boolean> {
    const rows = await sqlRows<{ id: string }>(this.#em, `insert into webhook_deliveries (id, organization_id, endpoint_id, event_id, kind, status, attempts,
      response_code, last_error, next_attempt_at, last_attempt_at, created_at, updated_at) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
      on conflict (endpoint_id, event_id) do nothing returning id`,
    [d.id, d.organizationId, d.endpointId, d.eventId, d.kind, d.status, d.attempts, d.responseCode, d.lastError, d.nextAttemptAt, d.lastAttemptAt,
      d.createdAt, d.updatedAt], { prepare: true });
    return rows.length > 0;
  }

  /** Pre-existing rows come from the statement's snapshot, which does not see the rows its own insert adds. */
  async insertOrFindMany(deliveries: readonly WebhookDelivery[]): Promise<WebhookDelivery[]> {
    if (deliveries.length === 0) return [];
    const column = <T>(pick: (d: WebhookDelivery) => T) => deliveries.map(pick);
    return (await sqlRows<Row>(this.#em, `with input as (
        select * from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[], $8::int[], $9::text[],
          $10::timestamptz[], $11::timestamptz[], $12::timestamptz[], $13::timestamptz[])
          as i (${COLUMNS})
      ), inserted as (
        insert into webhook_deliveries (${COLUMNS}) select * from input on conflict (endpoint_id, event_id) do nothing returning *
      )
      select * from inserted
      union all
      select d.* from webhook_deliveries d join input i on d.endpoint_id = i.endpoint_id and d.event_id = i.event_id and d.organization_id = i.organization_id`,
    [column((d) => d.id), column((d) => d.organizationId), column((d) => d.endpointId), column((d) => d.eventId), column((d) => d.kind),
      column((d) => d.status), column((d) => d.attempts), column((d) => d.responseCode), column((d) => d.lastError), column((d) => d.nextAttemptAt),
      column((d) => d.lastAttemptAt), column((d) => d.createdAt), column((d) => d.updatedAt)], { prepare: true })).map(toDelivery);
  }

  async find(organizationId: string, id: string): Promise<WebhookDelivery | null> {
    const rows = await sqlRows<Row>(this.#em, 'select * from webhook_deliveries where organization_id = $1 and id = $2', [organizationId, id], { prepare: true });
    return rows[0] ? toDelivery(rows[0]) : null;
  }

  async findMany(keys: ReadonlyArray<{ organizationId: string; id: string }>): Promise<WebhookDelivery[]> {
    if (keys.length === 0) return [];
    const rows = await sqlRows<Row>(this.#em, 'select * from webhook_deliveries where (organization_id, id) in (select * from unnest($1::text[], $2::text[]))',
      [keys.map((k) => k.organizationId), keys.map((k) => k.id)], { prepare: true });
    return rows.map(toDelivery);
  }

  async save(d: WebhookDelivery): Promise<boolean> {
    const rows = await sqlRows<{ id: string }>(this.#em, `update webhook_deliveries set status = $3, attempts = $4, response_code = $5, last_error = $6,
      next_attempt_at = $7, last_attempt_at = $8, updated_at = $9 where organization_id = $1 and id = $2 returning id`,
    [d.organizationId, d.id, d.status, d.attempts, d.responseCode, d.lastError, d.nextAttemptAt, d.lastAttemptAt, d.updatedAt], { prepare: true });
    return rows.length > 0;
  }

  async saveMany(deliveries: readonly WebhookDelivery[]): Promise<number> {
    if (deliveries.length === 0) return 0;
    const column = <T>(pick: (d: WebhookDelivery) => T) => deliveries.map(pick);
    const rows = await sqlRows<{ id: string }>(this.#em, `update webhook_deliveries d set status = v.status, attempts = v.attempts,
      response_code = v.response_code, last_error = v.last_error, next_attempt_at = v.next_attempt_at, last_attempt_at = v.last_attempt_at, updated_at = v.updated_at
      from unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::int[], $6::text[], $7::timestamptz[], $8::timestamptz[], $9::timestamptz[])
        as v (organization_id, id, status, attempts, response_code, last_error, next_attempt_at, last_attempt_at, updated_at)
      where d.organization_id = v.organization_id and d.id = v.id returning d.id`,
    [column((d) => d.organizationId), column((d) => d.id), column((d) => d.status), column((d) => d.attempts), column((d) => d.responseCode),
      column((d) => d.lastError), column((d) => d.nextAttemptAt), column((d) => d.lastAttemptAt), column((d) => d.updatedAt)], { prepare: true });
    return rows.length;
  }

  async listByEndpoint(organizationId: string, endpointId: string, limit: number): Promise<WebhookDelivery[]> {
    const rows = await sqlRows<Row>(this.#em, `select * from webhook_deliveries where organization_id = $1 and endpoint_id = $2
      order by created_at desc, id desc limit $3`, [organizationId, endpointId, Math.min(limit, 100)]);
    return rows.map(toDelivery);
  }
}
