import * as v from 'valibot';
import { fieldError } from '../../errors.ts';
import { parseInput } from '../../validation.ts';
import type { Clock } from '../../ports/clock.ts';
import type { Storage } from '../../ports/storage.ts';

export const ClickRatesQuery = v.object({
  by: v.optional(v.picklist(['template', 'campaign', 'locale'], 'must be template, campaign or locale'), 'template'),
  from: v.optional(v.pipe(v.string(), v.isoTimestamp('must be an ISO 8601 time'))),
  to: v.optional(v.pipe(v.string(), v.isoTimestamp('must be an ISO 8601 time'))),
});

const DAY_MS = 86_400_000;
const GROUP_FIELD = { template: 'templateId', campaign: 'campaignId', locale: 'locale' } as const;
const MAX_RANGE_DAYS = 400;

/**
 * GET /analytics/clicks: click rate of the messages with tracked links, per template, per campaign or per
 * locale (the template locale a message was rendered in), for messages created in [from, to) (default: the
 * last 30 days). clickRate = clickedMessages / messages (0 when none).
 */
export class GetClickRates {
  readonly #deps: { storage: Storage; clock: Clock };
  constructor(deps: { storage: Storage; clock: Clock }) { this.#deps = deps; }

  async execute(organizationId: string, raw: unknown) {
    const input = parseInput(ClickRatesQuery, raw);
    const to = input.to ? new Date(input.to) : this.#deps.clock.now();
    const from = input.from ? new Date(input.from) : new Date(to.getTime() - 30 * DAY_MS);
    if (from.getTime() >= to.getTime()) throw fieldError('from', 'from must be before to');
    if (to.getTime() - from.getTime() > MAX_RANGE_DAYS * DAY_MS) throw fieldError('from', `the range must be at most ${MAX_RANGE_DAYS} days`);
    const rates = await this.#deps.storage.trackedLinks.clickRates(organizationId, input.by, from, to);
    return {
      by: input.by, from: from.toISOString(), to: to.toISOString(),
      items: rates.map((r) => ({
        [GROUP_FIELD[input.by]]: r.key, messages: r.messages, clickedMessages: r.clickedMessages,
        clicks: r.clicks, uniqueClicks: r.uniqueClicks, clickRate: r.messages === 0 ? 0 : Math.round((r.clickedMessages / r.messages) * 10_000) / 10_000,
      })),
    };
  }
}
