import type { Migration } from './migration.ts';

/**
 * `contacts_org_created` rebuilt ascending. The contact list reads it backwards (newest first) just
 * the same, but new contacts now land at the end of their organization's range, where B-tree page
 * splits leave full pages: built descending, every insert went to the range's front and each split
 * left two half-empty pages (at 1,000,000 contacts 147 MB instead of 83 MB, and a CSV import spent
 * twice as long maintaining it; docs/performance.md, bench:audience).
 */
export const contactsCreatedAscending: Migration = {
  id: '0012-contacts-created-ascending',
  statements: [
    'drop index contacts_org_created',
    'create index contacts_org_created on contacts (organization_id, created_at, id)',
  ],
};
