import * as v from 'valibot';
import { encodingReport, type Ucs2Character } from '../../domain/encoding-report.ts';
import { localePreferences } from '../templates/locale-preferences.ts';
import { optOutOption } from '../consent/opt-out-link-text.ts';
import type { OptOutLinkSigner } from '../../ports/opt-out-links.ts';
import { AppError } from '../../errors.ts';
import { pushTokenKind, type PushTokenKind } from '../../domain/recipient.ts';
import { parseInput } from '../../validation.ts';
import type { Channel } from '../../domain/channel.ts';
import type { Template } from '../../domain/template.ts';
import { pesewasToGhs } from '../../domain/money.ts';
import { costPreview, type PricingRule, type PricingUnit } from '../../domain/pricing.ts';
import { smsSegments, type SmsEncoding } from '../../domain/sms-segments.ts';
import { needsLookup } from '../../domain/mobile-network.ts';
import type { SendLookups } from '../routing/number-lookup-support.ts';
import type { PricingRepository } from '../../ports/pricing-repository.ts';
import type { Storage } from '../../ports/storage.ts';
import { prepareMessage, type NetworkKnowledge } from './message-preparation.ts';
import { SendMessageInput } from './send-message.ts';
import type { OwnAccountPricing } from './accept-messages.ts';
import { routePrice } from './own-account-price.ts';

export interface MessageCostPreview {
  channel: Channel;
  /** Normalized as a send would store it (E.164, lowercased email domain ...). */
  recipient: string;
  /** The destination country that picked the pricing rule; null for email, push and non-geographic numbers. */
  country: string | null;
  /** The recipient's mobile network (docs/routing.md) that priced it when the route has a network price; null when unknown. */
  network: string | null;
  /** GHS a live send would also pay for a number lookup under the organization's mode (docs/routing.md); absent when none would be made. */
  lookupPrice?: number;
  /** PUSH: the service the device token belongs to (fcm, apns, expo; web for a Web Push subscription). */
  pushTokenKind?: PushTokenKind | null;
  /** SMS only (null otherwise): encoding, length in septets / UTF-16 code units, room per segment at this length. */
  encoding: SmsEncoding | null;
  characters: number | null;
  perSegment: number | null;
  /** SMS: segments the text needs; other channels: 1. */
  segments: number;
  /** The pricing rule applied: per segment (SMS) or per message, in GHS per unit. */
  unit: PricingUnit;
  unitPrice: number;
  /** What a live send would be charged, in GHS (sandbox keys are never charged). */
  price: number;
  /** Whose route prices it: the platform's rules, or the organization's own vendor account (its per-message fee). */
  priceSource: 'PLATFORM' | 'OWN_ACCOUNT';
  currency: 'GHS';
  /** EMAIL only, rendered. */
  subject: string | null;
  /** Rendered with the variables, exactly as it would be sent. */
  body: string;
  /** With a template: the locale its text was chosen in (docs/templates.md, "Locales"); null when the request's body replaced it. */
  locale?: string | null;
  /** SMS in UCS-2 (or with suggestTransliteration): the characters of the rendered text forcing UCS-2 (UTF-16 `index`, `codePointIndex`, `char`, `codePoint`). */
  ucs2Characters?: Ucs2Character[];
  ucs2CharacterCount?: number;
  /** SMS with `suggestTransliteration: true`: the text with GSM-7 spellings and what it would need (null when already GSM-7). Never applied. */
  transliteration?: { text: string; encoding: SmsEncoding; segments: number; characters: number; complete: boolean } | null;
  /** A template with variants: every approved locale's text for this recipient (encoding, segments, price in GHS). */
  locales?: Array<{ locale: string; encoding: SmsEncoding | null; segments: number; price: number; ucs2CharacterCount: number | null }>;
}

/** POST /messages/preview: the send body, plus the opt-in to transliteration suggestions. */
export const PreviewMessageInput = v.object({
  ...SendMessageInput.entries,
  suggestTransliteration: v.optional(v.boolean('must be true or false'), false),
});

export interface PreviewMessageCostDeps {
  storage: Pick<Storage, 'templates' | 'organizations' | 'contacts'>;
  pricing: PricingRepository;
  /** Counts the opt-out link a marketing message would carry (docs/consent.md). */
  optOutLinks?: OptOutLinkSigner | undefined;
  /** Organizations' own vendor accounts: a live send on their route is charged the own-account fee (docs/providers.md). */
  ownAccounts?: OwnAccountPricing | undefined;
  /** Numbers' networks (prefix tables plus corrections, docs/routing.md); without it the prefix tables. */
  networks?: NetworkKnowledge | undefined;
  /** Paid lookups: the preview says what one would cost (it never makes one). */
  lookups?: SendLookups | undefined;
}

/**
 * POST /messages/preview: takes the body of POST /messages/send and answers what that message would
 * be (recipient, rendered text, SMS encoding and segments) and cost, without recording, screening or
 * charging anything. It fails exactly as the send would before acceptance (VALIDATION_ERROR naming the
 * field, TEMPLATE_NOT_APPROVED); fraud and suppression verdicts are decided only by a real send.
 * `idempotencyKey` and `async` are accepted and ignored.
 */
export class PreviewMessageCost {
  readonly #deps: PreviewMessageCostDeps;
  constructor(deps: PreviewMessageCostDeps) { this.#deps = deps; }

  async execute(scope: { organizationId: string }, raw: unknown): Promise<MessageCostPreview> {
    const { suggestTransliteration, ...input } = parseInput(PreviewMessageInput, raw);
    const template = input.templateId ? await this.#deps.storage.templates.findById(scope.organizationId, input.templateId) : null;
    const rules = await this.#deps.pricing.listActive();
    const locales = await localePreferences(this.#deps.storage, scope.organizationId, template,
      { locale: input.locale, to: { channel: input.channel, address: input.to, countryCode: input.countryCode } });
    const prepared = prepareMessage({ ...input, sendAt: undefined, locales }, template, rules, '', { optOut: optOutOption(this.#deps, scope.organizationId), networks: this.#deps.networks }); // the price does not depend on when
    const cost = costPreview(rules, prepared.channel, prepared.country, prepared.body, prepared.network ?? null);
    if (!cost) throw new AppError('INTERNAL_ERROR', `no pricing rule for ${prepared.channel}`);
    const { price, ownAccount } = routePrice(this.#deps.ownAccounts, scope.organizationId, { channel: prepared.channel, country: prepared.country, price: cost.price });
    const lookups = this.#deps.lookups;
    const looksUp = lookups !== undefined && prepared.country !== null && prepared.recipient.startsWith('+')
      && needsLookup(await lookups.settings.lookupMode(scope.organizationId), lookups.deps.intelligence.known(prepared.recipient));
    return {
      channel: prepared.channel, recipient: prepared.recipient, country: prepared.country, network: prepared.network ?? null,
      ...(looksUp ? { lookupPrice: pesewasToGhs(lookups.deps.pricePerLookup) } : {}),
      encoding: cost.encoding, characters: cost.characters, perSegment: prepared.channel === 'SMS' ? smsSegments(prepared.body).perSegment : null,
      segments: cost.segments, unit: cost.rule.unit, unitPrice: pesewasToGhs(cost.rule.pricePerUnit), price: pesewasToGhs(price), priceSource: ownAccount ? 'OWN_ACCOUNT' : 'PLATFORM', currency: 'GHS',
      subject: prepared.subject, body: prepared.body,
      ...(template ? { locale: prepared.locale ?? null } : {}),
      ...(prepared.channel === 'SMS' && (cost.encoding === 'UCS-2' || suggestTransliteration) ? (({ ucs2Characters, ucs2CharacterCount, transliteration }) => ({ ucs2Characters, ucs2CharacterCount,
        ...(suggestTransliteration ? { transliteration: transliteration ?? null } : {}) }))(encodingReport(prepared.body, { suggest: suggestTransliteration })) : {}),
      ...(template && (template.variants ?? []).length > 0 && input.body === undefined ? { locales: this.#perLocale(scope.organizationId, input, template, rules) } : {}),
      ...(prepared.channel === 'PUSH' ? { pushTokenKind: pushTokenKind(prepared.recipient) } : {}),
    };
  }

  /** The same send rendered in each approved locale of the template (one that does not render is left out). */
  #perLocale(organizationId: string, input: v.InferOutput<typeof SendMessageInput>, template: Template, rules: readonly PricingRule[]): NonNullable<MessageCostPreview['locales']> {
    const available = [template.language, ...(template.variants ?? []).filter((x) => x.status === 'APPROVED').map((x) => x.locale)];
    return available.flatMap((locale) => {
      try {
        const p = prepareMessage({ ...input, sendAt: undefined, locales: [locale] }, template, rules, '', { optOut: optOutOption(this.#deps, organizationId) });
        const price = routePrice(this.#deps.ownAccounts, organizationId, { channel: p.channel, country: p.country, price: p.price }).price;
        return [{ locale, encoding: p.encoding, segments: p.segments, price: pesewasToGhs(price), ucs2CharacterCount: p.channel === 'SMS' ? encodingReport(p.body).ucs2CharacterCount : null }];
      } catch {
        return [];
      }
    });
  }
}
