import type { LinkSettings } from '../domain/link-settings.ts';

/** Tenant-scoped settings, one row per organization. */
export interface LinkSettingsRepository {
  find(organizationId: string): Promise<LinkSettings | null>;
  /** Inserts or replaces the organization's row. A custom domain verified by another organization: CONFLICT. */
  save(settings: LinkSettings): Promise<void>;
  /** The organization whose verified custom domain is `domain` (lowercase), or null. */
  findByVerifiedDomain(domain: string): Promise<LinkSettings | null>;
}
