import * as v from 'valibot';
import { parseInput } from '../../validation.ts';
import { pesewasToGhs } from '../../domain/money.ts';
import { estimateCampaign, type CampaignEstimateDeps } from './campaign-estimate.ts';
import { loadCampaign } from './campaign-support.ts';

/** GET /campaigns/{id}/estimate query: `suggestTransliteration=true` opts in to GSM-7 suggestions (docs/templates.md). */
export const EstimateCampaignQuery = v.object({
  suggestTransliteration: v.optional(v.pipe(v.picklist(['true', 'false'], 'must be true or false'), v.description('true: suggest GSM-7 spellings of characters forcing UCS-2'))),
});

/**
 * GET /campaigns/{id}/estimate: recipients now (the audience without opted-out contacts and those
 * without an address for the channel), SMS segments per message, estimated cost and whether the
 * wallet covers it (GHS), and for a new organization what the new-tenant cap allows this hour and how
 * many recipients it would refuse (`newTenantCap`, null once the organization is established), and per
 * template locale the recipients, encoding, segments, price and cost, with the characters forcing
 * UCS-2 (`locales`; transliteration suggestions only with `suggestTransliteration`, docs/templates.md).
 */
export class EstimateCampaign {
  readonly #deps: CampaignEstimateDeps;
  constructor(deps: CampaignEstimateDeps) { this.#deps = deps; }

  async execute(scope: { organizationId: string }, id: string, rawQuery: unknown = {}) {
    const query = parseInput(EstimateCampaignQuery, rawQuery ?? {});
    const { campaign } = await loadCampaign(this.#deps.storage, scope.organizationId, id, this.#deps.clock.now());
    const estimate = await estimateCampaign(this.#deps, campaign, { suggest: query.suggestTransliteration === 'true' });
    const balance = (await this.#deps.storage.wallets.get(scope.organizationId))?.balance ?? 0;
    const lookupCost = estimate.lookups?.cost ?? 0;
    return {
      recipients: estimate.recipients, segments: estimate.segmentsPerMessage, cost: pesewasToGhs(estimate.cost), currency: 'GHS' as const,
      // Paid number lookups the organization's mode would make (docs/routing.md), on top of `cost`; null when lookups are off.
      lookups: estimate.lookups === null ? null : { mode: estimate.lookups.mode, recipients: estimate.lookups.recipients, price: pesewasToGhs(estimate.lookups.price), cost: pesewasToGhs(lookupCost) },
      totalCost: pesewasToGhs(estimate.cost + lookupCost),
      balance: pesewasToGhs(balance), sufficientBalance: balance >= estimate.cost + lookupCost,
      wouldSkip: estimate.skipped.count, wouldSkipExact: estimate.skipped.exact, skipReasons: estimate.skipped.reasons,
      locales: estimate.locales.map((l) => ({
        locale: l.locale, contactLocales: l.contactLocales, recipients: l.recipients, wouldSkip: l.skipped, encoding: l.encoding, segments: l.segments,
        price: pesewasToGhs(l.price), cost: pesewasToGhs(l.cost),
        ...(l.text ? { ucs2Characters: l.text.ucs2Characters, ucs2CharacterCount: l.text.ucs2CharacterCount,
          ...(l.text.transliteration !== undefined ? { transliteration: l.text.transliteration } : {}) } : {}),
      })),
      newTenantCap: estimate.newTenantCap === null ? null : {
        perHour: estimate.newTenantCap.perHour, sentThisHour: estimate.newTenantCap.sentThisHour, allowedThisHour: estimate.newTenantCap.remaining,
        wouldRefuse: estimate.newTenantCap.refused, establishedAt: estimate.newTenantCap.establishedAt.toISOString(),
      },
    };
  }
}
