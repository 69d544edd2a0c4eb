import * as v from 'valibot';
import { parseInput } from '../../validation.ts';
import { pesewasToGhs } from '../../domain/money.ts';
import type { Clock } from '../../ports/clock.ts';
import type { Storage } from '../../ports/storage.ts';

export const MAX_USAGE_MONTHS = 24;

export const GetUsageInput = v.object({
  months: v.optional(v.pipe(v.string('must be a whole number'), v.regex(/^\d{1,3}$/, 'must be a whole number'), v.transform(Number),
    v.minValue(1, 'must be at least 1'), v.maxValue(MAX_USAGE_MONTHS, `must be at most ${MAX_USAGE_MONTHS}`),
    v.description('Calendar months including the current one (default 1: this month so far)')), '1'),
});

/**
 * GET /billing/usage?months=1: per channel, the messages sent (not rejected), SMS segments and net cost
 * (refunded messages cost nothing) since the first day (UTC) of the month `months - 1` months ago.
 */
export class GetUsage {
  readonly #deps: { storage: Pick<Storage, 'billingReports'>; clock: Clock };
  constructor(deps: { storage: Pick<Storage, 'billingReports'>; clock: Clock }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }, query: unknown) {
    const { months } = parseInput(GetUsageInput, query);
    const to = this.#deps.clock.now();
    const from = new Date(Date.UTC(to.getUTCFullYear(), to.getUTCMonth() - (months - 1), 1));
    const usage = await this.#deps.storage.billingReports.usageByChannel(scope.organizationId, from, to);
    const channels = usage.map((u) => ({ channel: u.channel, messages: u.messages, segments: u.segments, cost: pesewasToGhs(u.cost) }));
    return {
      months, from: from.toISOString(), to: to.toISOString(), currency: 'GHS', channels,
      totals: {
        messages: usage.reduce((s, u) => s + u.messages, 0), segments: usage.reduce((s, u) => s + u.segments, 0),
        cost: pesewasToGhs(usage.reduce((s, u) => s + u.cost, 0)),
      },
    };
  }
}
