import type { Migration } from './migration.ts';

/**
 * Single sign-on (issue 34; docs/security.md, "Single sign-on"; docs/adr/0039-openid-connect-single-sign-on.md):
 * - `sso_connections`: one OpenID Connect connection per organization, the client secret only sealed
 *   (AES-256-GCM with ENCRYPTION_KEY), an optional slug unique across organizations;
 * - `sso_domains`: email domains organizations claim, each with its DNS TXT token; a domain may be
 *   claimed by several organizations but verified by one (a partial unique index, so two verifications
 *   racing cannot both win).
 */
export const singleSignOn: Migration = {
  id: '0057-single-sign-on',
  statements: [
    `create table sso_connections (
      organization_id text primary key references organizations(id) on delete cascade,
      issuer_url text not null,
      client_id text not null,
      client_secret_ciphertext text not null,
      slug text null,
      scopes jsonb not null,
      default_role text not null,
      sso_only boolean not null default false,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`,
    'create unique index sso_connections_slug_unique on sso_connections (slug) where slug is not null',
    `create table sso_domains (
      id text primary key,
      organization_id text not null references organizations(id) on delete cascade,
      domain text not null,
      token text not null,
      verified_at timestamptz null,
      created_at timestamptz not null,
      constraint sso_domains_org_domain_unique unique (organization_id, domain)
    )`,
    'create unique index sso_domains_verified_once on sso_domains (domain) where verified_at is not null',
  ],
};
