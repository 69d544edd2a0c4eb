import { isExemptCategory, TEMPLATE_CATEGORIES, type Channel, type TemplateCategory } from './channel.ts';
import type { Contact } from './contact.ts';

/** Categories a recipient can opt out of (every category but the exempt ones, docs/consent.md). */
export const PREFERENCE_CATEGORIES: readonly TemplateCategory[] = TEMPLATE_CATEGORIES.filter((c) => !isExemptCategory(c));

/**
 * Channels a preference can be kept for, and the address it is kept under: the phone for SMS,
 * WhatsApp and voice, the email for email. (Push preferences belong to the device's own settings.)
 */
export const PREFERENCE_CHANNELS: readonly Channel[] = ['SMS', 'WHATSAPP', 'VOICE', 'EMAIL'];

export function addressFor(contact: Pick<Contact, 'phone' | 'email'>, channel: Channel): string | null {
  if (channel === 'EMAIL') return contact.email;
  return PREFERENCE_CHANNELS.includes(channel) ? contact.phone : null;
}

/** One cell of the preference grid: may this recipient get `category` on `channel`? */
export interface Preference { category: TemplateCategory; channel: Channel; optedIn: boolean }

/** Where a preference change came from (webhooks and the audit log say it). */
export type PreferenceSource = 'link' | 'one-click' | 'api' | 'keyword';
