import { CLOCK_TIME } from '../../domain/send-window.ts';
import * as v from 'valibot';
import { AppError } from '../../errors.ts';
import { fields, parseInput } from '../../validation.ts';
import { CHANNELS } from '../../domain/channel.ts';
import { organizationView, type OrganizationChanges } from '../../domain/organization.ts';
import type { MemberRole } from '../../domain/roles.ts';
import type { Clock } from '../../ports/clock.ts';
import type { Storage } from '../../ports/storage.ts';
import { senderIdRefusal } from '../senders/sender-id-check.ts';

/** The `integer` column's upper bound. */
const MAX_MONTHLY_VOLUME = 2_147_483_647;

/** A nullable text field: null or an empty (trimmed) string clears it; otherwise `check` applies. */
function clearable(max: number, check: v.GenericSchema<string, string> = v.string()) {
  const text = v.pipe(v.string(), v.maxLength(max, `must be at most ${max} characters`), check);
  return v.optional(v.nullable(v.pipe(
    v.string('must be a string'), v.trim(), v.transform((s) => (s === '' ? null : s)), v.nullable(text),
  )));
}

/** A real IANA time zone name (offsets such as "+01:00" are not names). */
export function isTimeZone(name: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** The zone as given, with ICU's capitalisation ("africa/accra" -> "Africa/Accra") but not its renames. */
export function timeZoneSpelling(name: string): string {
  const resolved = new Intl.DateTimeFormat('en', { timeZone: name }).resolvedOptions().timeZone;
  return resolved.toLowerCase() === name.toLowerCase() ? resolved : name;
}

function isLanguageTag(tag: string): boolean {
  try {
    return Intl.getCanonicalLocales(tag).length === 1;
  } catch {
    return false;
  }
}

export const BUSINESS_PHONE_RULE = 'must be a phone number of 7 to 15 digits, e.g. 030 123 4567 or +233 30 123 4567';

/** A phone number as people write it: an optional +, digits with spaces, dots, dashes or brackets; 7 to 15 digits (E.164's most). */
export function isBusinessPhone(text: string): boolean {
  const digits = text.replace(/\D/g, '').length;
  return /^\+?[0-9(][0-9 ().-]*$/.test(text.trim()) && digits >= 7 && digits <= 15;
}

/** One rule, one message: an absolute http(s) URL with a host. */
function isWebsite(text: string): boolean {
  if (!/^https?:\/\//i.test(text)) return false;
  try { return new URL(text).hostname !== ''; } catch { return false; }
}

/** Spec "Organization update": every field optional; unknown fields are ignored. */
export const UpdateOrganizationInput = v.object({
  name: v.optional(fields.requiredText(200)),
  industry: clearable(100),
  businessPhone: clearable(32, v.pipe(v.string(), v.check(isBusinessPhone, BUSINESS_PHONE_RULE))),
  businessEmail: clearable(254, v.pipe(v.string(), v.toLowerCase(), v.email('must be a valid email address'))),
  timezone: v.optional(v.pipe(fields.requiredText(64), v.check(isTimeZone, 'must be an IANA time zone such as Africa/Accra'),
    v.transform(timeZoneSpelling))),
  defaultLanguage: v.optional(v.pipe(fields.requiredText(35), v.check(isLanguageTag, 'must be a language tag such as en or fr-GH'))),
  website: clearable(2048, v.pipe(v.string(), v.check(isWebsite, 'must be an http or https URL, e.g. https://example.com'))),
  onboardingComplete: v.optional(v.boolean('must be true or false')),
  complianceAcknowledged: v.optional(v.boolean('must be true or false')),
  monthlyVolume: v.optional(v.nullable(v.pipe(v.number('must be a number'), v.integer('must be an integer'),
    v.minValue(0, 'must be 0 or more'), v.maxValue(MAX_MONTHLY_VOLUME, `must be at most ${MAX_MONTHLY_VOLUME}`)))),
  defaultSenderId: clearable(11),
  /** Recipients' local hours no non-urgent message reaches them (docs/consent.md); null clears. */
  quietHours: v.optional(v.nullable(v.pipe(v.object({
    start: v.pipe(v.string('must be a string'), v.regex(CLOCK_TIME, 'must be a time HH:MM')),
    end: v.pipe(v.string('must be a string'), v.regex(CLOCK_TIME, 'must be a time HH:MM')),
  }), v.check((q) => q.start !== q.end, 'start and end must differ')))),
  preferredChannels: v.optional(v.pipe(
    v.array(v.picklist(CHANNELS, `must be one of ${CHANNELS.join(', ')}`), 'must be an array'),
    v.maxLength(50, 'must have at most 50 entries'), v.transform((channels) => [...new Set(channels)]),
  )),
});
export type UpdateOrganizationInput = v.InferInput<typeof UpdateOrganizationInput>;

/**
 * PATCH /organizations/current: changes only the fields the spec lists; an empty body changes
 * nothing (and does not touch updatedAt). Errors: VALIDATION_ERROR, NOT_FOUND.
 */
export class UpdateOrganization {
  readonly #deps: { storage: Storage; clock: Clock };
  constructor(deps: { storage: Storage; clock: Clock }) { this.#deps = deps; }

  async execute(scope: { organizationId: string; userId: string; role: MemberRole }, raw: unknown) {
    const input = parseInput(UpdateOrganizationInput, raw);
    const changes = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined)) as OrganizationChanges;
    const { storage, clock } = this.#deps;
    if (changes.defaultSenderId) changes.defaultSenderId = await approvedSpelling(storage, scope.organizationId, changes.defaultSenderId);
    const organization = Object.keys(changes).length === 0
      ? await storage.organizations.findById(scope.organizationId)
      : await storage.organizations.update(scope.organizationId, changes, clock.now());
    if (!organization) throw new AppError('NOT_FOUND', 'Organization not found');
    return organizationView(organization);
  }
}

/** The default sender must be one of the organization's APPROVED sender IDs; stored as registered. */
async function approvedSpelling(storage: Storage, organizationId: string, name: string): Promise<string> {
  const senderId = await storage.senderIds.findByName(organizationId, name);
  if (!senderId || senderId.status !== 'APPROVED') throw senderIdRefusal(name, senderId?.status ?? null);
  return senderId.name;
}
