import type { EntityManager } from '@mikro-orm/sql';
import type { LinkSettings } from '../../core/domain/link-settings.ts';
import type { LinkSettingsRepository } from '../../core/ports/link-settings-repository.ts';
import { translateUniqueViolation } from './db-errors.ts';
import { sqlRows, toDate } from './sql-rows.ts';

interface Row {
  organization_id: string; track_links: boolean; track_email_opens: boolean; untracked_template_ids: string[];
  custom_domain: string | null; domain_token: string | null; domain_verified_at: Date | string | null; updated_at: Date | string;
}

/** `link_settings` (migration 0065): one row per organization; a verified domain has one owner (unique index). */
export class SqlLinkSettingsRepository implements LinkSettingsRepository {
  readonly #em: EntityManager;
  constructor(em: EntityManager) { this.#em = em; }

  async find(organizationId: string): Promise<LinkSettings | null> {
    const [row] = await sqlRows<Row>(this.#em, 'select * from link_settings where organization_id = $1', [organizationId], { prepare: true });
    return row ? toSettings(row) : null;
  }

  async save(s: LinkSettings): Promise<void> {
    await translateUniqueViolation('verified link domain', () => sqlRows(this.#em, `insert into link_settings
        (organization_id, track_links, track_email_opens, untracked_template_ids, custom_domain, domain_token, domain_verified_at, updated_at)
      values ($1, $2, $3, $4::text[], $5, $6, $7, $8)
      on conflict (organization_id) do update set track_links = excluded.track_links, track_email_opens = excluded.track_email_opens,
        untracked_template_ids = excluded.untracked_template_ids, custom_domain = excluded.custom_domain, domain_token = excluded.domain_token,
        domain_verified_at = excluded.domain_verified_at, updated_at = excluded.updated_at`,
    [s.organizationId, s.trackLinks, s.trackEmailOpens, s.untrackedTemplateIds, s.customDomain, s.domainToken, s.domainVerifiedAt, s.updatedAt]));
  }

  async findByVerifiedDomain(domain: string): Promise<LinkSettings | null> {
    const [row] = await sqlRows<Row>(this.#em, 'select * from link_settings where custom_domain = $1 and domain_verified_at is not null', [domain]);
    return row ? toSettings(row) : null;
  }
}

function toSettings(r: Row): LinkSettings {
  return {
    organizationId: r.organization_id, trackLinks: r.track_links, trackEmailOpens: r.track_email_opens, untrackedTemplateIds: [...r.untracked_template_ids],
    customDomain: r.custom_domain, domainToken: r.domain_token, domainVerifiedAt: toDate(r.domain_verified_at), updatedAt: toDate(r.updated_at)!,
  };
}
