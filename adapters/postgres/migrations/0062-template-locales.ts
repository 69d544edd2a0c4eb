import type { Migration } from './migration.ts';

/**
 * Templates in the recipient's language (issue 33, docs/templates.md "Locales", ADR 0046): a template's
 * variants per locale (jsonb keyed by the lowercased locale, so one variant is set or removed in one
 * statement), a contact's locale, the locale a trigger resolved for all its steps, and the locale each
 * message was rendered in (null: no template, or a template sent before this migration).
 */
export const templateLocales: Migration = {
  id: '0062-template-locales',
  statements: [
    `alter table templates add column variants jsonb not null default '{}'::jsonb`,
    'alter table contacts add column locale text',
    'alter table event_triggers add column locale text',
    'alter table messages add column locale text',
  ],
};
