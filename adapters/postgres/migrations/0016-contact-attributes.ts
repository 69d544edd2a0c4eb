import type { Migration } from './migration.ts';

/** Free-form contact attributes (docs/contacts.md): template variables of campaigns and segment fields. */
export const contactAttributes: Migration = {
  id: '0016-contact-attributes',
  statements: [`alter table contacts add column attributes jsonb not null default '{}'::jsonb`],
};
