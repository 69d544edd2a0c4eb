import type { Channel } from './channel.ts';
import { assertPesewas, type Pesewas } from './money.ts';
import { smsSegments, type SmsEncoding } from './sms-segments.ts';

/** What a tenant pays per message: per SMS segment, or per message for the other channels. */
export type PricingUnit = 'segment' | 'message';

export interface PricingRule {
  channel: Channel;
  /** ISO 3166 alpha-2 of the destination, or '*' for every other destination (and email/push). */
  country: string;
  /**
   * A mobile network of `country` ('MTN', 'TELECEL': docs/routing.md) when the price is the network's
   * (a network route's price); absent: the whole country.
   */
  network?: string | undefined;
  /** Integer pesewas per unit. */
  pricePerUnit: Pesewas;
  unit: PricingUnit;
}

/** The country of a default rule. */
export const ANY_COUNTRY = '*';

/**
 * The pricing a fresh install starts with (seeded into pricing_rules; operators change them
 * there). Plausible Ghana market retail figures for 2026, in pesewas (100 pesewas = GHS 1):
 *
 * | Channel  | Destination | Unit    | Pesewas | GHS   | Basis                                                   |
 * |----------|-------------|---------|---------|-------|---------------------------------------------------------|
 * | SMS      | GH          | segment | 3       | 0.03  | local bulk SMS from Ghana aggregators, GHS 0.02-0.035   |
 * | SMS      | NG          | segment | 10      | 0.10  | Nigerian termination bought from Accra plus margin      |
 * | SMS      | *           | segment | 25      | 0.25  | international termination, most destinations            |
 * | WHATSAPP | GH          | message | 8       | 0.08  | Meta's Rest-of-Africa utility rate plus margin          |
 * | WHATSAPP | *           | message | 20      | 0.20  | marketing and other markets                             |
 * | EMAIL    | *           | message | 1       | 0.01  | transactional email relay                               |
 * | PUSH     | *           | message | 1       | 0.01  | FCM is free to us; a pesewa covers upkeep, deters spam  |
 * | VOICE    | GH          | message | 15      | 0.15  | one short text-to-speech call, local                    |
 * | VOICE    | *           | message | 60      | 0.60  | one short call, international                           |
 * | IN_APP   | *           | message | 0       | 0.00  | stored in our own database: no vendor; free, like Novu's inbox |
 */
export const DEFAULT_PRICING_RULES: readonly PricingRule[] = [
  { channel: 'SMS', country: 'GH', pricePerUnit: 3, unit: 'segment' },
  { channel: 'SMS', country: 'NG', pricePerUnit: 10, unit: 'segment' },
  { channel: 'SMS', country: ANY_COUNTRY, pricePerUnit: 25, unit: 'segment' },
  { channel: 'WHATSAPP', country: 'GH', pricePerUnit: 8, unit: 'message' },
  { channel: 'WHATSAPP', country: ANY_COUNTRY, pricePerUnit: 20, unit: 'message' },
  { channel: 'EMAIL', country: ANY_COUNTRY, pricePerUnit: 1, unit: 'message' },
  { channel: 'PUSH', country: ANY_COUNTRY, pricePerUnit: 1, unit: 'message' },
  { channel: 'VOICE', country: 'GH', pricePerUnit: 15, unit: 'message' },
  { channel: 'VOICE', country: ANY_COUNTRY, pricePerUnit: 60, unit: 'message' },
  { channel: 'IN_APP', country: ANY_COUNTRY, pricePerUnit: 0, unit: 'message' },
];

/**
 * The rule pricing a message on `channel` to `country` (and its mobile `network` when known): the
 * network's rule first, then the rule for that exact country, then the channel's '*' rule; null when
 * none exists (the send path treats that as a configuration error, never as free). Country codes
 * compare case-insensitively; a null country (email, push, non-geographic numbers) only matches '*'.
 */
export function findRule(rules: readonly PricingRule[], channel: Channel, country: string | null, network: string | null = null): PricingRule | null {
  const wanted = country?.trim().toUpperCase() ?? null;
  const forChannel = rules.filter((rule) => rule.channel === channel);
  const inCountry = wanted && wanted !== ANY_COUNTRY ? forChannel.filter((rule) => rule.country.toUpperCase() === wanted) : [];
  const byNetwork = network ? inCountry.find((rule) => rule.network === network) : undefined;
  const exact = inCountry.find((rule) => !rule.network);
  return byNetwork ?? exact ?? forChannel.find((rule) => rule.country === ANY_COUNTRY && !rule.network) ?? null;
}

/**
 * The price of one message, in pesewas: pricePerUnit x segments for a per-segment rule (SMS),
 * pricePerUnit for a per-message rule. `segments` must be a whole number of at least 1.
 */
export function priceMessage(rule: PricingRule, segments: number = 1): Pesewas {
  if (!Number.isSafeInteger(segments) || segments < 1) throw new RangeError(`segments must be a positive integer: ${segments}`);
  const perUnit = assertPesewas(rule.pricePerUnit);
  return assertPesewas(rule.unit === 'segment' ? perUnit * segments : perUnit);
}

export interface CostPreview {
  rule: PricingRule;
  /** SMS: segments from smsSegments; other channels: 1. */
  segments: number;
  /** SMS only; null for other channels. */
  encoding: SmsEncoding | null;
  /** SMS only (septets or UTF-16 code units); null for other channels. */
  characters: number | null;
  price: Pesewas;
}

/** What a message would cost before it is sent (dashboard preview, the send path's price), or null without a rule. */
export function costPreview(rules: readonly PricingRule[], channel: Channel, country: string | null, text: string, network: string | null = null): CostPreview | null {
  const rule = findRule(rules, channel, country, network);
  if (!rule) return null;
  if (channel !== 'SMS') return { rule, segments: 1, encoding: null, characters: null, price: priceMessage(rule, 1) };
  const sms = smsSegments(text);
  return { rule, segments: sms.segments, encoding: sms.encoding, characters: sms.characters, price: priceMessage(rule, sms.segments) };
}
