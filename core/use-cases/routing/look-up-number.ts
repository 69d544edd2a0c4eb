import * as v from 'valibot';
import { AppError } from '../../errors.ts';
import { parseInput } from '../../validation.ts';
import { pesewasToGhs } from '../../domain/money.ts';
import { normalizePhone } from '../../domain/phone.ts';
import { countryCodeSchema } from '../messaging/message-preparation.ts';
import { lookUpNetwork, type NumberLookupDeps } from './number-lookup-support.ts';

export const LookUpNumberInput = v.object({
  to: v.pipe(v.string('must be a string'), v.trim(), v.minLength(1, 'is required'), v.maxLength(32, 'is too long')),
  countryCode: v.optional(countryCodeSchema, 'GH'),
  /** false: answer from what is known (prefix, reports, earlier lookups) without a paid lookup. */
  lookup: v.optional(v.boolean('must be true or false'), true),
});

/**
 * POST /routing/lookups: the network a number is on now. With `lookup` (default) a number not known from
 * a lookup or delivery report is looked up through the platform's vendor and charged like a send
 * (INSUFFICIENT_BALANCE, LOOKUP_FAILED, PROVIDER_UNAVAILABLE; refunded when the vendor fails); the answer
 * then routes and prices the organization's next messages to it (and everyone's: a number's network is
 * a fact about the number). Without: the prefix tables and what reports taught, free.
 */
export class LookUpNumber {
  readonly #deps: NumberLookupDeps;
  constructor(deps: NumberLookupDeps) { this.#deps = deps; }

  async execute(scope: { organizationId: string }, raw: unknown) {
    const input = parseInput(LookUpNumberInput, raw);
    const phone = normalizePhone(input.to, input.countryCode);
    if (!phone.ok) throw new AppError('VALIDATION_ERROR', `to ${phone.reason}`, { fieldErrors: { to: [`to ${phone.reason}`] }, formErrors: [] });
    const { e164, country } = phone.phone;
    const known = this.#deps.intelligence.known(e164);
    const view = (network: { country: string; network: string; source: string } | null, charged: number) => ({
      number: e164, country, network: network?.network ?? null, source: network?.source ?? null, charged: pesewasToGhs(charged),
    });
    if (!input.lookup || (known && known.source !== 'prefix')) return view(known, 0);
    const outcome = await lookUpNetwork(this.#deps, scope.organizationId, e164, country);
    return view(outcome.network ?? known, outcome.charged);
  }
}
