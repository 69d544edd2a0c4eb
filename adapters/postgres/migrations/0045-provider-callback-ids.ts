import type { Migration } from './migration.ts';

/**
 * Vendor callbacks bound to the account that sent the message (issue 28, docs/providers.md "Callback URLs"):
 * - every provider gets an unguessable callback id (122 random bits): its callback URL is
 *   `/providers/callbacks/<vendor>/<callbackId>`, and only that account's secret verifies what arrives there;
 * - an organization's own account records its messages under `<organizationId>/<name>` (provider names
 *   cannot contain '/', so no tenant name collides with a platform's or another tenant's): messages of
 *   own accounts still awaiting a report are renamed so their reports keep matching (not the ones whose
 *   name a platform provider also has: which of the two sent them is unknown).
 */
export const providerCallbackIds: Migration = {
  id: '0045-provider-callback-ids',
  statements: [
    `alter table providers add column callback_id text not null default replace(gen_random_uuid()::text, '-', '')`,
    `create unique index providers_callback_id on providers (callback_id)`,
    `update messages m set provider = m.organization_id || '/' || m.provider
       from providers p
      where p.organization_id = m.organization_id and p.name = m.provider and m.status in ('PENDING', 'SENT')
        and not exists (select 1 from providers q where q.organization_id is null and q.name = m.provider)`,
  ],
};
