import * as v from 'valibot';
import { AppError, fieldError } from '../../errors.ts';
import { normalizeContactFields, type ContactFields, type ContactFieldsInput } from '../../domain/contact.ts';
import type { ContactRepository } from '../../ports/contact-repository.ts';
import { isTimeZone, timeZoneSpelling } from '../organizations/update-organization.ts';

const optionalText = (max: number) => v.optional(v.nullable(v.pipe(v.string('must be a string'), v.maxLength(max, `must be at most ${max} characters`))));

/** Spec "Contact (create)": every field optional. PATCH takes the same fields; absent ones stay as they are. */
export const ContactBody = v.object({
  firstName: optionalText(100),
  lastName: optionalText(100),
  phone: optionalText(40),
  email: optionalText(254),
  countryCode: v.optional(v.pipe(v.string('must be a string'), v.trim(), v.regex(/^[A-Za-z]{2}$/, 'must be an ISO 3166 alpha-2 country code'))),
  tags: v.optional(v.pipe(v.array(v.pipe(v.string('must be strings'), v.maxLength(50, 'must be at most 50 characters each')), 'must be an array of strings'),
    v.maxLength(50, 'at most 50 tags'))),
  fcmToken: optionalText(4096),
  /** BCP 47 locale ('tw', 'en-GH'), checked and normalised by normalizeContactFields; null or blank clears it on update. */
  locale: optionalText(35),
  /** IANA time zone (Africa/Lagos); null clears it (the country's zone applies). */
  timeZone: v.optional(v.nullable(v.pipe(v.string('must be a string'), v.trim(), v.maxLength(64), v.check(isTimeZone, 'must be an IANA time zone such as Africa/Accra'),
    v.transform(timeZoneSpelling)))),
  /** Free-form attributes: name -> text (null removes on update); bounds in normalizeContactFields (docs/contacts.md). */
  attributes: v.optional(v.pipe(
    v.custom<Record<string, unknown>>((x) => typeof x === 'object' && x !== null && !Array.isArray(x), 'must be an object of name to text'),
    v.record(v.string(), v.nullable(v.string('values must be strings or null'))))),
});

/** Normalizes fields or throws VALIDATION_ERROR naming the field. */
export function contactFieldsOrThrow(input: ContactFieldsInput): ContactFields {
  const result = normalizeContactFields(input);
  if (!result.ok) throw fieldError(result.field, result.reason);
  return result.fields;
}

/**
 * The duplicate rule: within an organization a phone and an email belong to one contact. Creating or
 * updating into another contact's phone or email answers 409 CONFLICT naming that contact (merging is
 * what the CSV import does).
 */
export async function refuseDuplicates(contacts: ContactRepository, organizationId: string, fields: ContactFields, selfId: string | null): Promise<void> {
  const clashes = (await contacts.findByAddresses(organizationId, fields.phone ? [fields.phone] : [], fields.email ? [fields.email] : []))
    .filter((c) => c.id !== selfId);
  const clash = clashes[0];
  if (!clash) return;
  const field = fields.phone !== null && clash.phone === fields.phone ? 'phone' : 'email';
  throw new AppError('CONFLICT', `Another contact already has this ${field}`, { field, existingContactId: clash.id });
}
