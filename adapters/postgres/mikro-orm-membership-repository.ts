import type { InferEntity } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/sql';
import type { Membership } from '../../core/domain/organization.ts';
import type { MemberRole } from '../../core/domain/roles.ts';
import type { MembershipRepository } from '../../core/ports/membership-repository.ts';
import { translateUniqueViolation } from './db-errors.ts';
import { MembershipEntity } from './entities/organization-entity.ts';

type Row = InferEntity<typeof MembershipEntity>;

export class MikroOrmMembershipRepository implements MembershipRepository {
  readonly #em: EntityManager;
  constructor(em: EntityManager) { this.#em = em; }

  async insert(membership: Membership): Promise<void> {
    await translateUniqueViolation('membership', () => this.#em.insert(MembershipEntity, { ...membership }));
  }

  async find(organizationId: string, userId: string): Promise<Membership | null> {
    const row = await this.#em.findOne(MembershipEntity, { organizationId, userId }, { disableIdentityMap: true });
    return row ? toMembership(row) : null;
  }

  async listByOrganization(organizationId: string, limit: number): Promise<Membership[]> {
    const rows = await this.#em.find(MembershipEntity, { organizationId }, { orderBy: { createdAt: 'asc', id: 'asc' }, limit, disableIdentityMap: true });
    return rows.map(toMembership);
  }

  async listByUser(userId: string, limit: number): Promise<Membership[]> {
    const rows = await this.#em.find(MembershipEntity, { userId }, { orderBy: { createdAt: 'asc', id: 'asc' }, limit, disableIdentityMap: true });
    return rows.map(toMembership);
  }

  async countByOrganization(organizationId: string): Promise<number> {
    return this.#em.count(MembershipEntity, { organizationId });
  }
}

function toMembership(row: Row): Membership {
  return { id: row.id, organizationId: row.organizationId, userId: row.userId, role: row.role as MemberRole, createdAt: row.createdAt };
}
