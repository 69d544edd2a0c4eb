import type { InferEntity } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/sql';
import type { Organization, OrganizationChanges } from '../../core/domain/organization.ts';
import type { OrganizationRepository } from '../../core/ports/organization-repository.ts';
import { OrganizationEntity } from './entities/organization-entity.ts';
import { entityColumns, sqlRows, toDate } from './sql-rows.ts';

type Row = InferEntity<typeof OrganizationEntity>;

export class MikroOrmOrganizationRepository implements OrganizationRepository {
  readonly #em: EntityManager;
  constructor(em: EntityManager) { this.#em = em; }

  async insert(organization: Organization): Promise<void> {
    await this.#em.insert(OrganizationEntity, { ...organization });
  }

  /** Raw SQL: read on every send (docs/performance.md). */
  async findById(id: string): Promise<Organization | null> {
    const [row] = await sqlRows<Row>(this.#em, `select ${entityColumns(this.#em, OrganizationEntity).selectList} from organizations where id = $1`, [id], { prepare: true });
    return row ? toOrganization({ ...row, createdAt: toDate(row.createdAt)!, updatedAt: toDate(row.updatedAt)! }) : null;
  }

  async findManyByIds(ids: readonly string[]): Promise<Organization[]> {
    if (ids.length === 0) return [];
    const rows = await sqlRows<Row>(this.#em, `select ${entityColumns(this.#em, OrganizationEntity).selectList} from organizations where id = any($1::text[])`, [[...new Set(ids)]], { prepare: true });
    return rows.map((row) => toOrganization({ ...row, createdAt: toDate(row.createdAt)!, updatedAt: toDate(row.updatedAt)! }));
  }

  async update(id: string, changes: OrganizationChanges, now: Date): Promise<Organization | null> {
    const updated = await this.#em.nativeUpdate(OrganizationEntity, { id }, { ...changes, updatedAt: now });
    return updated === 0 ? null : this.findById(id);
  }

  async setPaused(id: string, paused: boolean, now: Date): Promise<Organization | null> {
    const updated = await this.#em.nativeUpdate(OrganizationEntity, { id }, { paused, updatedAt: now });
    return updated === 0 ? null : this.findById(id);
  }
}

export function toOrganization(row: Row): Organization {
  return {
    id: row.id, name: row.name, industry: row.industry ?? null, businessPhone: row.businessPhone ?? null,
    businessEmail: row.businessEmail ?? null, timezone: row.timezone, defaultLanguage: row.defaultLanguage,
    website: row.website ?? null, onboardingComplete: row.onboardingComplete, complianceAcknowledged: row.complianceAcknowledged,
    monthlyVolume: row.monthlyVolume ?? null, preferredChannels: row.preferredChannels, paused: row.paused,
    defaultSenderId: row.defaultSenderId ?? null, quietHours: row.quietHours ?? null,
    createdAt: row.createdAt, updatedAt: row.updatedAt,
  };
}
