import type { SsoConnection, SsoDomain } from '../domain/sso.ts';

/**
 * Organizations' single sign-on connections and claimed email domains (docs/security.md, "Single sign-on").
 * Tenant-scoped: every method that reads or changes one organization's data takes its id first.
 * A domain may be claimed by several organizations but verified by at most one: `markVerified` throws
 * AppError DOMAIN_TAKEN when another organization verified it first (a constraint, so it holds under
 * concurrency). `addDomain` throws DOMAIN_TAKEN when this organization already claims it; `saveConnection`
 * throws SLUG_EXISTS when another organization's connection uses the slug.
 */
export interface SsoRepository {
  findConnection(organizationId: string): Promise<SsoConnection | null>;
  /** Inserts or replaces the organization's one connection. */
  saveConnection(connection: SsoConnection): Promise<void>;
  /** The connection with this slug (sign-in by organization slug; not tenant-scoped by design). */
  findConnectionBySlug(slug: string): Promise<SsoConnection | null>;
  addDomain(domain: SsoDomain): Promise<void>;
  /** The organization's domains, oldest first, at most `limit`. */
  listDomains(organizationId: string, limit: number): Promise<SsoDomain[]>;
  findDomain(organizationId: string, id: string): Promise<SsoDomain | null>;
  /** Marks the domain verified and returns it; null when the organization has no such domain. */
  markVerified(organizationId: string, id: string, at: Date): Promise<SsoDomain | null>;
  /** Removes a claimed domain; false when the organization has no such domain. */
  removeDomain(organizationId: string, id: string): Promise<boolean>;
  /** The one verified claim of a domain, whichever organization holds it (sign-in by email). */
  findVerifiedDomain(domain: string): Promise<SsoDomain | null>;
}
