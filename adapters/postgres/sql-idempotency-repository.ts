import type { EntityManager } from '@mikro-orm/sql';
import { assertDistinctKeys, type IdempotencyClaim, type IdempotencyKeyClaim, type IdempotencyRepository } from '../../core/ports/idempotency-repository.ts';

/**
 * Claims with INSERT ... ON CONFLICT: a second transaction claiming the same key blocks on the unique
 * index until the first commits (then sees its row) or rolls back (then claims it). Several keys are
 * claimed in one statement, in (organization, key) order, so transactions claiming overlapping sets
 * cannot deadlock.
 */
export class SqlIdempotencyRepository implements IdempotencyRepository {
  readonly #em: EntityManager;
  constructor(em: EntityManager) { this.#em = em; }

  async claim(organizationId: string, key: string, requestHash: string, now: Date, expiresAt: Date): Promise<IdempotencyClaim> {
    const [answer] = await this.claimMany([{ organizationId, key, requestHash, messageIds: [] }], now, expiresAt);
    return answer!;
  }

  async claimMany(claims: readonly IdempotencyKeyClaim[], now: Date, expiresAt: Date): Promise<IdempotencyClaim[]> {
    if (claims.length === 0) return [];
    assertDistinctKeys(claims);
    const id = (c: { organizationId: string; key: string }) => `${c.organizationId}\u0000${c.key}`;
    const sorted = [...claims].sort((a, b) => (id(a) < id(b) ? -1 : id(a) > id(b) ? 1 : 0));
    const claimed = await this.#em.execute<{ organization_id: string; key: string }[]>(
      `insert into idempotency_keys (organization_id, key, request_hash, message_ids, expires_at, created_at)
       select x.org, x.key, x.hash, x.ids, ?, ? from json_to_recordset(?::json) as x(org text, key text, hash text, ids jsonb) order by x.org, x.key
       on conflict (organization_id, key) do update
         set request_hash = excluded.request_hash, message_ids = excluded.message_ids, expires_at = excluded.expires_at, created_at = excluded.created_at
         where idempotency_keys.expires_at <= excluded.created_at
       returning organization_id, key`,
      [expiresAt, now, JSON.stringify(sorted.map((c) => ({ org: c.organizationId, key: c.key, hash: c.requestHash, ids: c.messageIds })))]);
    const won = new Set(claimed.map((r) => id({ organizationId: r.organization_id, key: r.key })));
    const held = claims.filter((c) => !won.has(id(c)));
    const rows = held.length === 0 ? [] : await this.#em.execute<{ organization_id: string; key: string; request_hash: string; message_ids: string[] | string }[]>(
      `select i.organization_id, i.key, i.request_hash, i.message_ids from idempotency_keys i
         join json_to_recordset(?::json) as x(org text, key text) on i.organization_id = x.org and i.key = x.key`,
      [JSON.stringify(held.map((c) => ({ org: c.organizationId, key: c.key })))]);
    const found = new Map(rows.map((r) => [id({ organizationId: r.organization_id, key: r.key }), r]));
    return claims.map((c): IdempotencyClaim => {
      const row = won.has(id(c)) ? undefined : found.get(id(c));
      if (!row) return { claimed: true };
      const ids = typeof row.message_ids === 'string' ? (JSON.parse(row.message_ids) as string[]) : row.message_ids;
      return { claimed: false, requestHash: row.request_hash, messageIds: ids };
    });
  }

  async complete(organizationId: string, key: string, messageIds: readonly string[]): Promise<void> {
    await this.#em.execute('update idempotency_keys set message_ids = ?::jsonb where organization_id = ? and key = ?',
      [JSON.stringify(messageIds), organizationId, key]);
  }

  async release(keys: ReadonlyArray<{ organizationId: string; key: string }>): Promise<void> {
    if (keys.length === 0) return;
    await this.#em.execute(
      `delete from idempotency_keys i using json_to_recordset(?::json) as x(org text, key text) where i.organization_id = x.org and i.key = x.key`,
      [JSON.stringify(keys.map((k) => ({ org: k.organizationId, key: k.key })))]);
  }

  async purgeExpired(now: Date): Promise<number> {
    const result = await this.#em.execute<{ affectedRows?: number }>('delete from idempotency_keys where expires_at <= ?', [now], 'run');
    return result.affectedRows ?? 0;
  }
}
