import type { EntityManager } from '@mikro-orm/sql';
import type { SessionRevocationRepository } from '../../core/ports/session-revocation-repository.ts';
import { sqlRows } from './sql-rows.ts';

/** `revoked_sessions` (one row per revoked token) and `session_cutoffs` (one row per user), migration 0014. */
export class SqlSessionRevocationRepository implements SessionRevocationRepository {
  readonly #em: EntityManager;
  constructor(em: EntityManager) { this.#em = em; }

  async revokeToken(tokenId: string, expiresAt: Date): Promise<void> {
    await sqlRows(this.#em, 'insert into revoked_sessions (token_id, expires_at) values ($1, $2) on conflict (token_id) do nothing', [tokenId, expiresAt]);
  }

  async revokeUserSessionsBefore(userId: string, before: Date): Promise<void> {
    await sqlRows(this.#em, `insert into session_cutoffs (user_id, cutoff) values ($1, $2)
      on conflict (user_id) do update set cutoff = greatest(session_cutoffs.cutoff, excluded.cutoff)`, [userId, before]);
  }

  async isRevoked(session: { tokenId: string; userId: string; issuedAt: Date }): Promise<boolean> {
    const [row] = await sqlRows<{ revoked: boolean }>(this.#em, `select
        exists (select 1 from revoked_sessions where token_id = $1)
        or exists (select 1 from session_cutoffs where user_id = $2 and cutoff > $3) as revoked`,
    [session.tokenId, session.userId, session.issuedAt], { prepare: true });
    return row?.revoked === true;
  }

  async purgeExpired(now: Date): Promise<number> {
    const rows = await sqlRows<{ token_id: string }>(this.#em, 'delete from revoked_sessions where expires_at <= $1 returning token_id', [now]);
    return rows.length;
  }
}
