import type { Migration } from './migration.ts';

/**
 * WhatsApp business-initiated messages (issue 29, docs/whatsapp-templates.md): a WHATSAPP template keeps
 * the Meta template it maps to and the last check against the Meta account (jsonb, null when none); a
 * message sent outside the 24-hour window keeps the Meta template payload it goes as (passcodes masked,
 * the clear one sealed with the text).
 */
export const whatsappMetaTemplates: Migration = {
  id: '0051-whatsapp-meta-templates',
  statements: [
    'alter table templates add column meta_template jsonb, add column meta_check jsonb',
    'alter table messages add column whatsapp_template jsonb',
  ],
};
