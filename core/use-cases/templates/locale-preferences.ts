import type { Channel } from '../../domain/channel.ts';
import type { Contact } from '../../domain/contact.ts';
import { normalizeRecipient } from '../../domain/recipient.ts';
import type { Template } from '../../domain/template.ts';
import type { Storage } from '../../ports/storage.ts';

/**
 * The locale preferences of one send of `template`, most important first (docs/templates.md,
 * "Locales"): the request's or trigger's `locale`, then the contact's locale, then the organization's
 * default (`defaultLanguage`); the template's own language is the last resort (chooseTemplateContent).
 *
 * Reads nothing for a template without variants (its own body is the only text). A send by address
 * (`to`, no contact) finds its contact by phone or email only when no `locale` was given.
 */
export async function localePreferences(storage: Pick<Storage, 'organizations' | 'contacts'>, organizationId: string, template: Template | null,
  given: { locale?: string | undefined; contact?: Contact | null | undefined; to?: { channel: Channel; address: string; countryCode: string } | undefined }): Promise<Array<string | null>> {
  if (!template || (template.variants ?? []).length === 0) return [];
  let contact = given.contact ?? null;
  if (!contact && given.to && given.locale === undefined) contact = await contactOf(storage, organizationId, given.to);
  const organization = await storage.organizations.findById(organizationId);
  return [given.locale ?? null, contact?.locale ?? null, organization?.defaultLanguage ?? null];
}

async function contactOf(storage: Pick<Storage, 'contacts'>, organizationId: string, to: { channel: Channel; address: string; countryCode: string }): Promise<Contact | null> {
  if (to.channel !== 'SMS' && to.channel !== 'WHATSAPP' && to.channel !== 'VOICE' && to.channel !== 'EMAIL') return null;
  const read = normalizeRecipient(to.channel, to.address, to.countryCode);
  if (!read.ok) return null; // the send reports the bad address itself
  const isEmail = to.channel === 'EMAIL';
  const found = await storage.contacts.findByAddresses(organizationId, isEmail ? [] : [read.recipient], isEmail ? [read.recipient] : []);
  return found[0] ?? null;
}
