import * as v from 'valibot';
import { parseInput } from '../../validation.ts';
import { addDays, startOfUtcDay, startOfUtcMonth } from '../../domain/analytics.ts';
import { CHANNELS } from '../../domain/channel.ts';
import { pesewasToGhs } from '../../domain/money.ts';
import type { Clock } from '../../ports/clock.ts';
import type { Storage } from '../../ports/storage.ts';

export const MAX_COST_MONTHS = 12;

export const GetAnalyticsCostsInput = v.object({
  months: v.optional(v.pipe(
    v.string('must be a whole number'), v.regex(/^\d{1,2}$/, 'must be a whole number'), v.transform(Number),
    v.number(), v.minValue(1, 'must be at least 1'), v.maxValue(MAX_COST_MONTHS, `must be at most ${MAX_COST_MONTHS}`),
    v.description(`Calendar months, this one included (default 3, at most ${MAX_COST_MONTHS})`)), '3'),
});

/**
 * GET /analytics/costs?months=3: usage and cost per calendar month (UTC, this month to date
 * included) and channel: messages, SMS segments and charged cost; plus the month's ledger debits and
 * refunds (their net equals the cost for messages charged and refunded in the same month). GHS.
 */
export class GetAnalyticsCosts {
  readonly #deps: { storage: Pick<Storage, 'analytics'>; clock: Clock };
  constructor(deps: { storage: Pick<Storage, 'analytics'>; clock: Clock }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }, query: unknown = {}) {
    const input = parseInput(GetAnalyticsCostsInput, query);
    const now = this.#deps.clock.now();
    const from = startOfUtcMonth(now, input.months - 1);
    const end = addDays(startOfUtcDay(now), 1);
    const [rows, ledger] = await Promise.all([
      this.#deps.storage.analytics.dailyMessages(scope.organizationId, from, end),
      this.#deps.storage.analytics.dailyLedger(scope.organizationId, from, end),
    ]);
    const months = Array.from({ length: input.months }, (_, i) => startOfUtcMonth(now, input.months - 1 - i).toISOString().slice(0, 7));
    return {
      months: input.months,
      items: months.map((month) => {
        const mine = rows.filter((r) => r.day.startsWith(month));
        const channels = CHANNELS.map((channel) => {
          const of = mine.filter((r) => r.channel === channel);
          return {
            channel, messages: of.reduce((s, r) => s + r.messages, 0), segments: of.reduce((s, r) => s + r.segments, 0),
            cost: pesewasToGhs(of.reduce((s, r) => s + r.cost, 0)),
          };
        });
        const entries = ledger.filter((e) => e.day.startsWith(month));
        const debits = -entries.filter((e) => e.kind === 'DEBIT').reduce((s, e) => s + e.amount, 0);
        const refunds = entries.filter((e) => e.kind === 'REFUND').reduce((s, e) => s + e.amount, 0);
        return {
          month, messages: mine.reduce((s, r) => s + r.messages, 0), cost: pesewasToGhs(mine.reduce((s, r) => s + r.cost, 0)), channels,
          ledger: { debits: pesewasToGhs(debits), refunds: pesewasToGhs(refunds), net: pesewasToGhs(debits - refunds) },
        };
      }),
    };
  }
}
