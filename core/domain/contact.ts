import { DEFAULT_COUNTRY, normalizePhone } from './phone.ts';

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
  /** Set when the contact opted out (they are also on the suppression list). */
  optedOutAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export function contactView(c: Contact) {
  return {
    id: c.id, firstName: c.firstName, lastName: c.lastName, phone: c.phone, email: c.email, countryCode: c.countryCode,
    tags: c.tags, fcmToken: c.fcmToken, optedOut: c.optedOutAt !== null, optedOutAt: c.optedOutAt?.toISOString() ?? null,
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
}

export type ContactFields = Pick<Contact, 'firstName' | 'lastName' | 'phone' | 'email' | 'countryCode' | 'tags' | 'fcmToken'>;

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
  return {
    ok: true,
    fields: {
      firstName: blank(input.firstName), lastName: blank(input.lastName), phone, email, countryCode,
      tags: normalizeTags(input.tags ?? []), fcmToken: blank(input.fcmToken),
    },
  };
}
