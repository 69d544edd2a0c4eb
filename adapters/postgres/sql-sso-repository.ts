import type { EntityManager } from '@mikro-orm/sql';
import { AppError } from '../../core/errors.ts';
import type { MemberRole } from '../../core/domain/roles.ts';
import type { SsoConnection, SsoDomain } from '../../core/domain/sso.ts';
import type { SsoRepository } from '../../core/ports/sso-repository.ts';
import { isUniqueViolation } from './db-errors.ts';
import { sqlRows } from './sql-rows.ts';

interface ConnectionRow {
  organization_id: string; issuer_url: string; client_id: string; client_secret_ciphertext: string; slug: string | null;
  scopes: string[] | string; default_role: string; sso_only: boolean; created_at: Date | string; updated_at: Date | string;
}
interface DomainRow { id: string; organization_id: string; domain: string; token: string; verified_at: Date | string | null; created_at: Date | string }

const toConnection = (r: ConnectionRow): SsoConnection => ({
  organizationId: r.organization_id, issuerUrl: r.issuer_url, clientId: r.client_id, clientSecretCiphertext: r.client_secret_ciphertext, slug: r.slug,
  scopes: typeof r.scopes === 'string' ? JSON.parse(r.scopes) as string[] : r.scopes, defaultRole: r.default_role as MemberRole, ssoOnly: r.sso_only,
  createdAt: new Date(r.created_at), updatedAt: new Date(r.updated_at),
});
const toDomain = (r: DomainRow): SsoDomain => ({
  id: r.id, organizationId: r.organization_id, domain: r.domain, token: r.token, verifiedAt: r.verified_at === null ? null : new Date(r.verified_at), createdAt: new Date(r.created_at),
});

/** `sso_connections` and `sso_domains` (migration 0057). */
export class SqlSsoRepository implements SsoRepository {
  readonly #em: EntityManager;
  constructor(em: EntityManager) { this.#em = em; }

  async findConnection(organizationId: string): Promise<SsoConnection | null> {
    const rows = await sqlRows<ConnectionRow>(this.#em, 'select * from sso_connections where organization_id = $1', [organizationId]);
    return rows[0] ? toConnection(rows[0]) : null;
  }

  async saveConnection(c: SsoConnection): Promise<void> {
    try {
      await sqlRows(this.#em, `insert into sso_connections (organization_id, issuer_url, client_id, client_secret_ciphertext, slug, scopes, default_role, sso_only, created_at, updated_at)
        values ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9, $10)
        on conflict (organization_id) do update set issuer_url = excluded.issuer_url, client_id = excluded.client_id,
          client_secret_ciphertext = excluded.client_secret_ciphertext, slug = excluded.slug, scopes = excluded.scopes,
          default_role = excluded.default_role, sso_only = excluded.sso_only, updated_at = excluded.updated_at`,
      [c.organizationId, c.issuerUrl, c.clientId, c.clientSecretCiphertext, c.slug, JSON.stringify(c.scopes), c.defaultRole, c.ssoOnly, c.createdAt, c.updatedAt]);
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('SLUG_EXISTS', 'Another organization uses this slug', {}, { cause: error });
      throw error;
    }
  }

  async findConnectionBySlug(slug: string): Promise<SsoConnection | null> {
    const rows = await sqlRows<ConnectionRow>(this.#em, 'select * from sso_connections where slug = $1', [slug]);
    return rows[0] ? toConnection(rows[0]) : null;
  }

  async addDomain(d: SsoDomain): Promise<void> {
    try {
      await sqlRows(this.#em, 'insert into sso_domains (id, organization_id, domain, token, verified_at, created_at) values ($1, $2, $3, $4, $5, $6)',
        [d.id, d.organizationId, d.domain, d.token, d.verifiedAt, d.createdAt]);
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('DOMAIN_TAKEN', `${d.domain} is already claimed by this organization`, {}, { cause: error });
      throw error;
    }
  }

  async listDomains(organizationId: string, limit: number): Promise<SsoDomain[]> {
    const rows = await sqlRows<DomainRow>(this.#em, 'select * from sso_domains where organization_id = $1 order by created_at, id limit $2', [organizationId, limit]);
    return rows.map(toDomain);
  }

  async findDomain(organizationId: string, id: string): Promise<SsoDomain | null> {
    const rows = await sqlRows<DomainRow>(this.#em, 'select * from sso_domains where organization_id = $1 and id = $2', [organizationId, id]);
    return rows[0] ? toDomain(rows[0]) : null;
  }

  async markVerified(organizationId: string, id: string, at: Date): Promise<SsoDomain | null> {
    try {
      const rows = await sqlRows<DomainRow>(this.#em, `update sso_domains set verified_at = coalesce(verified_at, $3)
        where organization_id = $1 and id = $2 returning *`, [organizationId, id, at]);
      return rows[0] ? toDomain(rows[0]) : null;
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('DOMAIN_TAKEN', 'This domain is verified by another organization', {}, { cause: error });
      throw error;
    }
  }

  async removeDomain(organizationId: string, id: string): Promise<boolean> {
    const rows = await sqlRows<{ id: string }>(this.#em, 'delete from sso_domains where organization_id = $1 and id = $2 returning id', [organizationId, id]);
    return rows.length > 0;
  }

  async findVerifiedDomain(domain: string): Promise<SsoDomain | null> {
    const rows = await sqlRows<DomainRow>(this.#em, 'select * from sso_domains where domain = $1 and verified_at is not null', [domain]);
    return rows[0] ? toDomain(rows[0]) : null;
  }
}
