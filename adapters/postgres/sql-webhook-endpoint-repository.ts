import type { EntityManager } from '@mikro-orm/sql';
import type { OutboundEventKind } from '../../core/domain/outbound-event.ts';
import type { WebhookEndpoint } from '../../core/domain/webhook.ts';
import type { WebhookEndpointRepository } from '../../core/ports/webhook-endpoint-repository.ts';
import { sqlRows, toDate } from './sql-rows.ts';
import { countOf, underLimitLock } from './organization-lock.ts';

interface Row {
  id: string; organization_id: string; url: string; events: OutboundEventKind[] | string; is_active: boolean; secret_ciphertext: string;
  previous_secret_ciphertext: string | null; previous_secret_expires_at: Date | string | null; disabled_reason: string | null;
  failing_since: Date | string | null; created_at: Date | string; updated_at: Date | string;
}

function toEndpoint(r: Row): WebhookEndpoint {
  return {
    id: r.id, organizationId: r.organization_id, url: r.url, events: typeof r.events === 'string' ? JSON.parse(r.events) as OutboundEventKind[] : r.events,
    isActive: r.is_active, secretCiphertext: r.secret_ciphertext, previousSecretCiphertext: r.previous_secret_ciphertext,
    previousSecretExpiresAt: toDate(r.previous_secret_expires_at), disabledReason: r.disabled_reason, failingSince: toDate(r.failing_since),
    createdAt: toDate(r.created_at)!, updatedAt: toDate(r.updated_at)!,
  };
}

const SUBSCRIBED = `organization_id = $1 and is_active and (events = '[]'::jsonb or events @> jsonb_build_array($2::text))`;

export class SqlWebhookEndpointRepository implements WebhookEndpointRepository {
  readonly #em: EntityManager;
  constructor(em: EntityManager) { this.#em = em; }

  async writeWithinLimit(e: WebhookEndpoint, mode: 'insert' | 'save', limit: number): Promise<'WRITTEN' | 'LIMIT' | 'NOT_FOUND'> {
    return underLimitLock(this.#em, 'webhook-endpoints', e.organizationId, async (em) => {
      const others = await countOf(em, 'select count(*) as n from webhook_endpoints where organization_id = $1 and is_active and id <> $2', [e.organizationId, e.id]);
      if (e.isActive && others >= limit) return 'LIMIT';
      const repository = new SqlWebhookEndpointRepository(em);
      if (mode === 'save') return (await repository.save(e)) ? 'WRITTEN' : 'NOT_FOUND';
      await repository.insert(e);
      return 'WRITTEN';
    });
  }

  async insert(e: WebhookEndpoint): Promise<void> {
    await sqlRows(this.#em, `insert into webhook_endpoints (id, organization_id, url, events, is_active, secret_ciphertext, previous_secret_ciphertext,
      previous_secret_expires_at, disabled_reason, failing_since, created_at, updated_at) values ($1, $2, $3, $4::jsonb, $5, $6, $7, $8, $9, $10, $11, $12)`,
    [e.id, e.organizationId, e.url, JSON.stringify(e.events), e.isActive, e.secretCiphertext, e.previousSecretCiphertext, e.previousSecretExpiresAt,
      e.disabledReason, e.failingSince, e.createdAt, e.updatedAt]);
  }

  async find(organizationId: string, id: string): Promise<WebhookEndpoint | null> {
    const rows = await sqlRows<Row>(this.#em, 'select * from webhook_endpoints where organization_id = $1 and id = $2', [organizationId, id]);
    return rows[0] ? toEndpoint(rows[0]) : null;
  }

  async findMany(keys: ReadonlyArray<{ organizationId: string; id: string }>): Promise<WebhookEndpoint[]> {
    if (keys.length === 0) return [];
    const rows = await sqlRows<Row>(this.#em, 'select * from webhook_endpoints where (organization_id, id) in (select * from unnest($1::text[], $2::text[]))',
      [keys.map((k) => k.organizationId), keys.map((k) => k.id)], { prepare: true });
    return rows.map(toEndpoint);
  }

  async list(organizationId: string, limit: number): Promise<WebhookEndpoint[]> {
    const rows = await sqlRows<Row>(this.#em, 'select * from webhook_endpoints where organization_id = $1 order by created_at desc, id desc limit $2',
      [organizationId, Math.min(limit, 100)]);
    return rows.map(toEndpoint);
  }

  async save(e: WebhookEndpoint): Promise<boolean> {
    const rows = await sqlRows<{ id: string }>(this.#em, `update webhook_endpoints set url = $3, events = $4::jsonb, is_active = $5, secret_ciphertext = $6,
      previous_secret_ciphertext = $7, previous_secret_expires_at = $8, disabled_reason = $9, failing_since = $10, updated_at = $11
      where organization_id = $1 and id = $2 returning id`,
    [e.organizationId, e.id, e.url, JSON.stringify(e.events), e.isActive, e.secretCiphertext, e.previousSecretCiphertext, e.previousSecretExpiresAt,
      e.disabledReason, e.failingSince, e.updatedAt]);
    return rows.length > 0;
  }

  async listActive(organizationIds: readonly string[]): Promise<WebhookEndpoint[]> {
    if (organizationIds.length === 0) return [];
    const rows = await sqlRows<Row>(this.#em, 'select * from webhook_endpoints where organization_id = any($1::text[]) and is_active order by created_at, id',
      [[...new Set(organizationIds)]], { prepare: true });
    return rows.map(toEndpoint);
  }

  async hasSubscribers(organizationId: string, kind: OutboundEventKind): Promise<boolean> {
    const rows = await sqlRows<{ found: boolean }>(this.#em, `select exists (select 1 from webhook_endpoints where ${SUBSCRIBED}) as found`, [organizationId, kind]);
    return rows[0]?.found === true;
  }
}
