import type { InferEntity } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/sql';
import type { PlatformRole } from '../../core/domain/roles.ts';
import type { User } from '../../core/domain/user.ts';
import type { UserRepository } from '../../core/ports/user-repository.ts';
import { translateUniqueViolation } from './db-errors.ts';
import { UserEntity } from './entities/user-entity.ts';

type Row = InferEntity<typeof UserEntity>;

export class MikroOrmUserRepository implements UserRepository {
  readonly #em: EntityManager;
  constructor(em: EntityManager) { this.#em = em; }

  async insert(user: User): Promise<void> {
    await translateUniqueViolation('user', () => this.#em.insert(UserEntity, { ...user, email: user.email.toLowerCase() }));
  }

  async findById(id: string): Promise<User | null> {
    const row = await this.#em.findOne(UserEntity, { id }, { disableIdentityMap: true });
    return row ? toUser(row) : null;
  }

  async findByEmail(email: string): Promise<User | null> {
    const row = await this.#em.findOne(UserEntity, { email: email.toLowerCase() }, { disableIdentityMap: true });
    return row ? toUser(row) : null;
  }

  async findManyByIds(ids: readonly string[]): Promise<User[]> {
    if (ids.length === 0) return [];
    const rows = await this.#em.find(UserEntity, { id: { $in: [...ids] } }, { disableIdentityMap: true });
    return rows.map(toUser);
  }

  async updatePassword(id: string, passwordHash: string): Promise<void> {
    await this.#em.nativeUpdate(UserEntity, { id }, { passwordHash });
  }

  async setPlatformRole(id: string, role: PlatformRole | null): Promise<void> {
    await this.#em.nativeUpdate(UserEntity, { id }, { platformRole: role });
  }
}

function toUser(row: Row): User {
  return {
    id: row.id, email: row.email, passwordHash: row.passwordHash, firstName: row.firstName, lastName: row.lastName,
    platformRole: (row.platformRole as PlatformRole | null) ?? null, createdAt: row.createdAt,
  };
}
