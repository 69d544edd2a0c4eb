import type { EntityManager } from '@mikro-orm/sql';
import { assertDistinctKeys, type IdempotencyClaim, type IdempotencyKeyClaim, type IdempotencyRepository } from '../../core/ports/idempotency-repository.ts';

/**
 * Claims with INSERT ... ON CONFLICT: a second transaction claiming the same key blocks on the unique
 * index until the first commits (then sees its row) or rolls back (then claims it). Several keys are
 * claimed in one statement, in key order, so transactions claiming overlapping sets cannot deadlock.
 */
export class SqlIdempotencyRepository implements IdempotencyRepository {
  readonly #em: EntityManager;
  constructor(em: EntityManager) { this.#em = em; }

  async claim(organizationId: string, key: string, requestHash: string, now: Date, expiresAt: Date): Promise<IdempotencyClaim> {
    const [answer] = await this.claimMany(organizationId, [{ key, requestHash }], now, expiresAt);
    return answer!;
  }

  async claimMany(organizationId: string, claims: readonly IdempotencyKeyClaim[], now: Date, expiresAt: Date): Promise<IdempotencyClaim[]> {
    if (claims.length === 0) return [];
    assertDistinctKeys(claims);
    const sorted = [...claims].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const claimed = await this.#em.execute<{ key: string }[]>(
      `insert into idempotency_keys (organization_id, key, request_hash, message_ids, expires_at, created_at)
       select ?, x.key, x.hash, '[]', ?, ? from json_to_recordset(?::json) as x(key text, hash text) order by x.key
       on conflict (organization_id, key) do update
         set request_hash = excluded.request_hash, message_ids = '[]', expires_at = excluded.expires_at, created_at = excluded.created_at
         where idempotency_keys.expires_at <= excluded.created_at
       returning key`,
      [organizationId, expiresAt, now, JSON.stringify(sorted.map((c) => ({ key: c.key, hash: c.requestHash })))]);
    const won = new Set(claimed.map((r) => r.key));
    const held = claims.filter((c) => !won.has(c.key)).map((c) => c.key);
    const rows = held.length === 0 ? [] : await this.#em.execute<{ key: string; request_hash: string; message_ids: string[] | string }[]>(
      `select key, request_hash, message_ids from idempotency_keys
        where organization_id = ? and key in (select value from json_array_elements_text(?::json))`, [organizationId, JSON.stringify(held)]);
    const found = new Map(rows.map((r) => [r.key, r]));
    return claims.map((c): IdempotencyClaim => {
      const row = won.has(c.key) ? undefined : found.get(c.key);
      if (!row) return { claimed: true };
      const ids = typeof row.message_ids === 'string' ? (JSON.parse(row.message_ids) as string[]) : row.message_ids;
      return { claimed: false, requestHash: row.request_hash, messageIds: ids };
    });
  }

  async complete(organizationId: string, key: string, messageIds: readonly string[]): Promise<void> {
    await this.completeMany(organizationId, [{ key, messageIds }]);
  }

  async completeMany(organizationId: string, completions: ReadonlyArray<{ key: string; messageIds: readonly string[] }>): Promise<void> {
    if (completions.length === 0) return;
    await this.#em.execute(
      `update idempotency_keys i set message_ids = x.ids
         from json_to_recordset(?::json) as x(key text, ids jsonb)
        where i.organization_id = ? and i.key = x.key`,
      [JSON.stringify(completions.map((c) => ({ key: c.key, ids: c.messageIds }))), organizationId]);
  }

  async purgeExpired(now: Date): Promise<number> {
    const result = await this.#em.execute<{ affectedRows?: number }>('delete from idempotency_keys where expires_at <= ?', [now], 'run');
    return result.affectedRows ?? 0;
  }
}
