import { mergeAttributes, type Contact, type ContactFields } from './contact.ts';
import type { ImportRowError } from './contact-import.ts';

/** A readable CSV row of an import: normalized fields, and whether its countryCode cell was filled. */
export interface ImportRow {
  line: number;
  fields: ContactFields;
  hasCountry: boolean;
}

export interface MergedImportRows {
  /** New contacts, later rows of the batch already merged into them. */
  fresh: Contact[];
  /** Stored contacts (of `stored`) that rows changed. */
  dirty: Contact[];
  created: number;
  updated: number;
  /** Rows skipped, in file order. */
  rejected: ImportRowError[];
}

/**
 * Applies a batch of import rows, in file order, to the contacts they match (docs/contacts.md,
 * "Rows: create, update or skip"): a row matches the contact holding its phone, else the one holding
 * its email, among `stored` and the contacts earlier rows created. No match: `create` makes a new
 * contact. A match: non-empty cells overwrite, tags are added, the country changes only when given.
 * A row whose phone and email belong to two contacts, or whose other address differs from the
 * matched contact's, is rejected. Changes the `stored` objects in place; never changes `rows`.
 */
export function mergeImportRows(rows: readonly ImportRow[], stored: readonly Contact[], create: (fields: ContactFields) => Contact, now: Date): MergedImportRows {
  const byPhone = new Map<string, Contact>(); const byEmail = new Map<string, Contact>();
  const index = (c: Contact) => { if (c.phone) byPhone.set(c.phone, c); if (c.email) byEmail.set(c.email, c); };
  stored.forEach(index);
  const fresh = new Set<Contact>(); const dirty = new Set<Contact>(); const rejected: ImportRowError[] = [];
  let created = 0; let updated = 0;
  for (const { line, fields, hasCountry } of rows) {
    const phoneMatch = fields.phone ? byPhone.get(fields.phone) : undefined;
    const emailMatch = fields.email ? byEmail.get(fields.email) : undefined;
    if (phoneMatch && emailMatch && phoneMatch !== emailMatch) { rejected.push({ line, reason: 'the phone and the email belong to two different contacts' }); continue; }
    const match = phoneMatch ?? emailMatch;
    if (!match) {
      const contact = create(fields);
      fresh.add(contact); index(contact); created += 1;
      continue;
    }
    if (fields.phone && match.phone && match.phone !== fields.phone) { rejected.push({ line, reason: 'the email belongs to a contact with another phone' }); continue; }
    if (fields.email && match.email && match.email !== fields.email) { rejected.push({ line, reason: 'the phone belongs to a contact with another email' }); continue; }
    match.firstName = fields.firstName ?? match.firstName; match.lastName = fields.lastName ?? match.lastName;
    match.phone = fields.phone ?? match.phone; match.email = fields.email ?? match.email; match.fcmToken = fields.fcmToken ?? match.fcmToken;
    if (hasCountry) match.countryCode = fields.countryCode;
    if (fields.locale) match.locale = fields.locale;
    match.tags = [...new Set([...match.tags, ...fields.tags])];
    match.attributes = mergeAttributes(match.attributes, fields.attributes);
    match.updatedAt = now;
    index(match);
    if (!fresh.has(match)) dirty.add(match);
    updated += 1;
  }
  return { fresh: [...fresh], dirty: [...dirty], created, updated, rejected };
}
