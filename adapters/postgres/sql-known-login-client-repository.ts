import type { EntityManager } from '@mikro-orm/sql';
import { KNOWN_LOGIN_CLIENTS_PER_USER, type KnownLoginClientRepository } from '../../core/ports/known-login-client-repository.ts';
import { sqlRows } from './sql-rows.ts';

/** `known_login_clients` (migration 0047): one row per (user, client digest). */
export class SqlKnownLoginClientRepository implements KnownLoginClientRepository {
  readonly #em: EntityManager;
  constructor(em: EntityManager) { this.#em = em; }

  async remember(userId: string, clientHashes: readonly string[], at: Date): Promise<void> {
    if (clientHashes.length === 0) return;
    await sqlRows(this.#em, `insert into known_login_clients (user_id, client_hash, last_seen_at)
      select $1, h, $3 from unnest($2::text[]) as h
      on conflict (user_id, client_hash) do update set last_seen_at = greatest(known_login_clients.last_seen_at, excluded.last_seen_at)`,
    [userId, [...new Set(clientHashes)], at]);
    await sqlRows(this.#em, `delete from known_login_clients where user_id = $1 and client_hash not in (
      select client_hash from known_login_clients where user_id = $1 order by last_seen_at desc, client_hash limit $2)`, [userId, KNOWN_LOGIN_CLIENTS_PER_USER]);
  }

  async findKnown(userId: string, clientHashes: readonly string[], since: Date): Promise<string[]> {
    if (clientHashes.length === 0) return [];
    const rows = await sqlRows<{ client_hash: string }>(this.#em,
      'select client_hash from known_login_clients where user_id = $1 and client_hash = any($2::text[]) and last_seen_at >= $3', [userId, [...clientHashes], since]);
    return rows.map((r) => r.client_hash);
  }

  async forgetUser(userId: string): Promise<void> {
    await sqlRows(this.#em, 'delete from known_login_clients where user_id = $1', [userId]);
  }
}
