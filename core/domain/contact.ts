import { DEFAULT_COUNTRY, normalizePhone } from './phone.ts';
import { normaliseLocale } from './locale.ts';
import { looksLikeWebPushSubscription, parseWebPushSubscription } from './web-push-subscription.ts';

/** A person a tenant messages: any of phone (E.164), email (lowercased) and push token. */
export interface Contact {
  id: string;
  organizationId: string;
  firstName: string | null;
  lastName: string | null;
  /** E.164, or null. */
  phone: string | null;
  /** Lowercased, or null. */
  email: string | null;
  /** ISO 3166-1 alpha-2 used to read the phone number; default GH. */
  countryCode: string;
  tags: string[];
  fcmToken: string | null;
  /** Free-form attributes (city, plan, order id ...): template variables and segment fields (docs/contacts.md). */
  attributes: Record<string, string>;
  /** Set when the contact opted out (they are also on the suppression list). */
  optedOutAt: Date | null;
  /** BCP 47 locale the contact reads (docs/contacts.md): picks the template variant (docs/templates.md, "Locales"); null or absent: the organization's default. */
  locale?: string | null;
  /** IANA time zone for send windows and quiet hours (docs/consent.md); null or absent: the country's. */
  timeZone?: string | null;
  /** The last push token removal: a vendor said the device is gone (docs/contacts.md, "Dead push tokens"). */
  pushTokenRemovedAt?: Date | null;
  /** Why: the error code and the vendor's words (e.g. "UNREGISTERED: FCM UNREGISTERED Requested entity was not found."). */
  pushTokenRemovedReason?: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export function contactView(c: Contact) {
  return {
    id: c.id, firstName: c.firstName, lastName: c.lastName, phone: c.phone, email: c.email, countryCode: c.countryCode,
    tags: c.tags, fcmToken: c.fcmToken, attributes: c.attributes, locale: c.locale ?? null, timeZone: c.timeZone ?? null, optedOut: c.optedOutAt !== null, optedOutAt: c.optedOutAt?.toISOString() ?? null,
    pushTokenRemovedAt: c.pushTokenRemovedAt?.toISOString() ?? null, pushTokenRemovedReason: c.pushTokenRemovedReason ?? null,
    createdAt: c.createdAt.toISOString(), updatedAt: c.updatedAt.toISOString(),
  };
}

/** Tags as stored: trimmed, lowercased, unique, in first-seen order. */
export function normalizeTags(tags: readonly string[]): string[] {
  return [...new Set(tags.map((t) => t.trim().toLowerCase()).filter((t) => t !== ''))];
}

/** Contact fields as a person or a CSV row gives them (all optional). */
export interface ContactFieldsInput {
  firstName?: string | null | undefined;
  lastName?: string | null | undefined;
  phone?: string | null | undefined;
  email?: string | null | undefined;
  countryCode?: string | undefined;
  tags?: readonly string[] | undefined;
  fcmToken?: string | null | undefined;
  /** A BCP 47 locale ('tw', 'en-GH'); blank: none given. */
  locale?: string | null | undefined;
  /** Attributes to set; a null or blank value removes the attribute (on update and import). */
  attributes?: Readonly<Record<string, string | null>> | undefined;
}

export type ContactFields = Pick<Contact, 'firstName' | 'lastName' | 'phone' | 'email' | 'countryCode' | 'tags' | 'fcmToken'> & {
  /** Attributes given (null: remove), merged into the contact's by the caller. */
  attributes: Record<string, string | null>;
  /** Normalised (domain/locale.ts); absent when none was given. */
  locale?: string;
};

/** Bounds of contact attributes: names are identifiers usable as template placeholders. */
export const ATTRIBUTE_NAME = /^[A-Za-z][A-Za-z0-9_]{0,39}$/;
export const ATTRIBUTES_MAX = 50;
export const ATTRIBUTE_VALUE_MAX = 500;

/** Applies given attributes to stored ones: values set, null or blank removes. */
export function mergeAttributes(stored: Readonly<Record<string, string>>, given: Readonly<Record<string, string | null>>): Record<string, string> {
  const merged: Record<string, string> = { ...stored };
  for (const [name, value] of Object.entries(given)) {
    if (value === null || value.trim() === '') delete merged[name];
    else merged[name] = value.trim();
  }
  return merged;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Normalizes contact fields: phone to E.164 read with `countryCode` (default GH), email trimmed and
 * lowercased, blanks to null, tags normalized. Returns the first problem as { field, reason }.
 * A contact needs at least one of phone, email or fcmToken to be reachable, but may have none.
 */
export function normalizeContactFields(input: ContactFieldsInput):
  { ok: true; fields: ContactFields } | { ok: false; field: string; reason: string } {
  const blank = (s: string | null | undefined) => (s === undefined || s === null || s.trim() === '' ? null : s.trim());
  const countryCode = (blank(input.countryCode) ?? DEFAULT_COUNTRY).toUpperCase();
  if (!/^[A-Z]{2}$/.test(countryCode)) return { ok: false, field: 'countryCode', reason: 'must be an ISO 3166 alpha-2 country code' };
  let phone = blank(input.phone);
  if (phone !== null) {
    const read = normalizePhone(phone, countryCode);
    if (!read.ok) return { ok: false, field: 'phone', reason: `phone ${read.reason}` };
    phone = read.phone.e164;
  }
  const email = blank(input.email)?.toLowerCase() ?? null;
  if (email !== null && (email.length > 254 || !EMAIL.test(email))) return { ok: false, field: 'email', reason: 'email must be a valid email address' };
  let fcmToken = blank(input.fcmToken);
  if (fcmToken !== null && looksLikeWebPushSubscription(fcmToken)) {
    // A browser's Web Push subscription is kept in its one canonical spelling: the spelling sends store, so a dead one is cleared from the contact.
    const read = parseWebPushSubscription(fcmToken);
    if (!read.ok) return { ok: false, field: 'fcmToken', reason: `fcmToken ${read.reason}` };
    fcmToken = read.canonical;
  }
  const givenLocale = blank(input.locale);
  const locale = givenLocale === null ? null : normaliseLocale(givenLocale);
  if (givenLocale !== null && locale === null) return { ok: false, field: 'locale', reason: 'locale must be a BCP 47 language tag such as tw, ee, gaa, fr or en-GH' };
  const attributes = input.attributes ?? {};
  if (Object.keys(attributes).length > ATTRIBUTES_MAX) return { ok: false, field: 'attributes', reason: `at most ${ATTRIBUTES_MAX} attributes` };
  for (const [name, value] of Object.entries(attributes)) {
    if (!ATTRIBUTE_NAME.test(name)) return { ok: false, field: 'attributes', reason: `attribute name "${name.slice(0, 50)}" must start with a letter and hold at most 40 letters, digits and _` };
    if (value !== null && value.length > ATTRIBUTE_VALUE_MAX) return { ok: false, field: 'attributes', reason: `attribute ${name} must be at most ${ATTRIBUTE_VALUE_MAX} characters` };
  }
  return {
    ok: true,
    fields: {
      firstName: blank(input.firstName), lastName: blank(input.lastName), phone, email, countryCode,
      tags: normalizeTags(input.tags ?? []), fcmToken, attributes: { ...attributes }, ...(locale ? { locale } : {}),
    },
  };
}
