import type { EntityManager } from '@mikro-orm/sql';
import type { IdempotencyClaim, IdempotencyRepository } from '../../core/ports/idempotency-repository.ts';

/**
 * Claims with INSERT ... ON CONFLICT: a second transaction claiming the same key blocks on the unique
 * index until the first commits (then sees its row) or rolls back (then claims it).
 */
export class SqlIdempotencyRepository implements IdempotencyRepository {
  readonly #em: EntityManager;
  constructor(em: EntityManager) { this.#em = em; }

  async claim(organizationId: string, key: string, requestHash: string, now: Date, expiresAt: Date): Promise<IdempotencyClaim> {
    const claimed = await this.#em.execute<{ key: string }[]>(
      `insert into idempotency_keys (organization_id, key, request_hash, message_ids, expires_at, created_at)
       values (?, ?, ?, '[]', ?, ?)
       on conflict (organization_id, key) do update
         set request_hash = excluded.request_hash, message_ids = '[]', expires_at = excluded.expires_at, created_at = excluded.created_at
         where idempotency_keys.expires_at <= excluded.created_at
       returning key`,
      [organizationId, key, requestHash, expiresAt, now]);
    if (claimed.length > 0) return { claimed: true };
    const rows = await this.#em.execute<{ request_hash: string; message_ids: string[] | string }[]>(
      'select request_hash, message_ids from idempotency_keys where organization_id = ? and key = ?', [organizationId, key]);
    const row = rows[0];
    if (!row) return { claimed: true };
    const ids = typeof row.message_ids === 'string' ? (JSON.parse(row.message_ids) as string[]) : row.message_ids;
    return { claimed: false, requestHash: row.request_hash, messageIds: ids };
  }

  async complete(organizationId: string, key: string, messageIds: readonly string[]): Promise<void> {
    await this.#em.execute('update idempotency_keys set message_ids = ?::jsonb where organization_id = ? and key = ?',
      [JSON.stringify(messageIds), organizationId, key]);
  }

  async purgeExpired(now: Date): Promise<number> {
    const result = await this.#em.execute<{ affectedRows?: number }>('delete from idempotency_keys where expires_at <= ?', [now], 'run');
    return result.affectedRows ?? 0;
  }
}
