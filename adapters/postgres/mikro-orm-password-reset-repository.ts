import type { EntityManager } from '@mikro-orm/sql';
import type { PasswordReset, PasswordResetRepository } from '../../core/ports/password-reset-repository.ts';
import { PasswordResetEntity } from './entities/password-reset-entity.ts';

export class MikroOrmPasswordResetRepository implements PasswordResetRepository {
  readonly #em: EntityManager;
  constructor(em: EntityManager) { this.#em = em; }

  async insert(reset: PasswordReset): Promise<void> {
    await this.#em.insert(PasswordResetEntity, { ...reset });
  }

  // One conditional UPDATE ... RETURNING: two concurrent consumers cannot both win.
  async consume(tokenHash: string, now: Date): Promise<string | null> {
    const rows = await this.#em.execute<{ user_id: string }[]>(
      'update password_resets set used_at = ? where token_hash = ? and used_at is null and expires_at > ? returning user_id',
      [now, tokenHash, now]);
    return rows[0]?.user_id ?? null;
  }

  async invalidateForUser(userId: string, now: Date): Promise<void> {
    await this.#em.nativeUpdate(PasswordResetEntity, { userId, usedAt: null }, { usedAt: now });
  }
}
