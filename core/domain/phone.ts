import { isSupportedCountry, parsePhoneNumberFromString, validatePhoneNumberLength } from 'libphonenumber-js/max';
import type { PhoneNumberType } from 'libphonenumber-js/max';

/**
 * Phone numbers, read with Google's numbering metadata (libphonenumber-js, the 'max' metadata:
 * about 160 KB of JSON, loaded once; the smaller 'min' set checks lengths only and cannot tell a
 * mobile from a premium-rate number). The rules are written up in docs/messaging-rules.md.
 */
export type PhoneType = PhoneNumberType;

export interface NormalizedPhone {
  /** E.164: '+' then country calling code and national number, no spaces ('+233241234567'). */
  e164: string;
  /** ISO 3166 alpha-2 country, or null for a non-geographic number (+800, +870, +881, +882, +883, +979 ...). */
  country: string | null;
  /** The country calling code without '+' ('233'). */
  callingCode: string;
  /** The number's type per the metadata, or null when the metadata cannot tell. */
  type: PhoneType | null;
}

export type PhoneProblem = 'UNKNOWN_COUNTRY' | 'NOT_A_NUMBER' | 'INVALID_CHARACTERS' | 'TOO_SHORT' | 'TOO_LONG' | 'INVALID_NUMBER';

/** `reason` reads after the field name: "to is not a valid phone number for GH". */
export type PhoneResult =
  | { ok: true; phone: NormalizedPhone }
  | { ok: false; problem: PhoneProblem; reason: string };

export const DEFAULT_COUNTRY = 'GH';

/** Digits, spaces and the punctuation people type in numbers; '+' only in front. No letters, no extensions. */
const PHONE_CHARACTERS = /^\+?[0-9\s().\/-]+$/;

/**
 * Reads a phone number as typed by a person or sent by an integration and returns it in E.164.
 *
 * Accepted: international format ('+233 24 123 4567', '00233241234567') for any country, and the
 * national format of `defaultCountry` ('024 123 4567', '0241234567', '(024) 123-4567').
 * Digits without '+' that start with the default country's calling code ('233241234567') are read
 * as international only when the national reading is not a valid number (libphonenumber's rule);
 * for any other country a '+' or '00' is required, so '234803...' with default GH is rejected
 * rather than guessed. Numbers must be valid for their country, not merely of plausible length.
 */
export function normalizePhone(raw: string, defaultCountry: string = DEFAULT_COUNTRY): PhoneResult {
  const country = defaultCountry.trim().toUpperCase();
  if (!isSupportedCountry(country)) {
    return failure('UNKNOWN_COUNTRY', `cannot be read: ${JSON.stringify(defaultCountry)} is not a supported ISO 3166 country code`);
  }
  const text = raw.trim();
  if (text === '' || !/[0-9]/.test(text)) return failure('NOT_A_NUMBER', 'is not a phone number');
  if (!PHONE_CHARACTERS.test(text)) {
    return failure('INVALID_CHARACTERS', 'may contain only digits, spaces, ( ) . - / and a leading +');
  }
  const international = text.startsWith('+') || text.startsWith('00');
  const parsed = parsePhoneNumberFromString(text, { defaultCountry: country, extract: false });
  const where = parsed ? placeOf(parsed.country, parsed.countryCallingCode) : international ? null : country;
  const suffix = where ? ` for ${where}` : '';
  if (!parsed || !parsed.isValid()) {
    switch (validatePhoneNumberLength(text, country)) {
      case 'TOO_SHORT': return failure('TOO_SHORT', `is too short to be a phone number${suffix}`);
      case 'TOO_LONG': return failure('TOO_LONG', `is too long to be a phone number${suffix}`);
      case 'INVALID_COUNTRY': return failure('INVALID_NUMBER', 'has an unknown country calling code');
      case 'NOT_A_NUMBER': return failure('NOT_A_NUMBER', 'is not a phone number');
      default: return failure('INVALID_NUMBER', `is not a valid phone number${suffix}`);
    }
  }
  let type: PhoneType | null | undefined;
  return {
    ok: true,
    phone: {
      e164: parsed.number,
      country: parsed.isNonGeographic() ? null : (parsed.country ?? null),
      callingCode: parsed.countryCallingCode,
      // Read on demand: the type costs as much again as the validity check, and most callers (a bulk import) never ask.
      get type() { return type === undefined ? (type = parsed.getType() ?? null) : type; },
    },
  };
}

export type PremiumRateReason = 'premium-rate' | 'international-network';

/**
 * Why a send to this number is blocked as FRAUD_PREMIUM_RATE (spec section 7), or null.
 *
 * - 'premium-rate': the metadata types the number PREMIUM_RATE (UK 09xx, US/Canada 1-900, the
 *   international +979 ...). Checked first, so +979 reports as premium-rate.
 * - 'international-network': the number belongs to a non-geographic "global service" calling code,
 *   the ones libphonenumber files under region '001' instead of a country (in metadata 1.13.16:
 *   +800 freephone, +808 shared cost, +870 Inmarsat, +878 UPT, +881 satellite (Iridium, Globalstar,
 *   Thuraya), +882/+883 international networks, +888, +979). Taken from the metadata, not a
 *   hand-kept list, so new codes come with library updates. These ranges are the classic target
 *   of SMS pumping / toll fraud and no tenant of ours sends to them in the normal course.
 */
export function premiumRateReason(phone: NormalizedPhone): PremiumRateReason | null {
  if (phone.type === 'PREMIUM_RATE') return 'premium-rate';
  if (phone.country === null) return 'international-network';
  return null;
}

function placeOf(country: string | undefined, callingCode: string): string {
  return country ?? `+${callingCode}`;
}

function failure(problem: PhoneProblem, reason: string): PhoneResult {
  return { ok: false, problem, reason };
}
