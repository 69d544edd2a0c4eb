import { addDays, deliveryRate, emptyByChannel, isoDay, percentChange, startOfUtcDay, startOfUtcMonth } from '../../domain/analytics.ts';
import { CHANNELS, type Channel } from '../../domain/channel.ts';
import { pesewasToGhs } from '../../domain/money.ts';
import type { DailyMessageTotal } from '../../ports/analytics-repository.ts';
import type { Clock } from '../../ports/clock.ts';
import type { Storage } from '../../ports/storage.ts';

export const OVERVIEW_DAYS = 30;

interface Sums { messages: number; accepted: number; delivered: number; failed: number; rejected: number; cost: number; outbox: number }
const zero = (): Sums => ({ messages: 0, accepted: 0, delivered: 0, failed: 0, rejected: 0, cost: 0, outbox: 0 });
function add(s: Sums, r: DailyMessageTotal): void {
  s.messages += r.messages; s.cost += r.cost;
  // Written to the outbox is not delivered: kept out of accepted, and so of the delivery rate.
  if (r.status === 'SENT' || r.status === 'DELIVERED') { s.accepted += r.messages - r.outbox; s.outbox += r.outbox; }
  if (r.status === 'DELIVERED') s.delivered += r.messages;
  if (r.status === 'FAILED') s.failed += r.messages;
  if (r.status === 'REJECTED') s.rejected += r.messages;
}
const view = (s: Sums) => ({
  messages: s.messages, accepted: s.accepted, delivered: s.delivered, failed: s.failed, rejected: s.rejected, outbox: s.outbox,
  deliveryRate: deliveryRate(s.accepted, s.failed), spend: pesewasToGhs(s.cost),
});

/**
 * GET /analytics/overview: the last 30 UTC days (today included): messages per day and channel,
 * totals per channel, delivery rate and spend (charged cost of the messages, net of refunds, which
 * equals the ledger's debits plus refunds: both are shown), and month-over-month trends (this
 * month to date against the same days of the previous month). Money in GHS. Messages written to a
 * local outbox (the default provider when no vendor is configured) are counted as `outbox`, not as
 * accepted: they never left the machine, so they are kept out of the delivery rate.
 */
export class GetAnalyticsOverview {
  readonly #deps: { storage: Pick<Storage, 'analytics'>; clock: Clock; outboxProviders?: () => Promise<readonly string[]> };
  constructor(deps: { storage: Pick<Storage, 'analytics'>; clock: Clock; outboxProviders?: () => Promise<readonly string[]> }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }) {
    const { storage, clock } = this.#deps;
    const now = clock.now();
    const end = addDays(startOfUtcDay(now), 1);
    const windowFrom = addDays(end, -OVERVIEW_DAYS);
    const monthStart = startOfUtcMonth(now);
    const previousMonthStart = startOfUtcMonth(now, 1);
    const elapsedDays = Math.round((end.getTime() - monthStart.getTime()) / 86_400_000);
    const previousEnd = new Date(Math.min(addDays(previousMonthStart, elapsedDays).getTime(), monthStart.getTime()));
    const from = new Date(Math.min(windowFrom.getTime(), previousMonthStart.getTime()));
    const [rows, ledger] = await Promise.all([
      (this.#deps.outboxProviders?.() ?? Promise.resolve([])).then((outbox) => storage.analytics.dailyMessages(scope.organizationId, from, end, outbox)),
      storage.analytics.dailyLedger(scope.organizationId, windowFrom, end),
    ]);

    const days = new Map<string, { date: string; messages: number; byChannel: Record<Channel, number>; cost: number }>();
    for (let d = windowFrom; d < end; d = addDays(d, 1)) days.set(isoDay(d), { date: isoDay(d), messages: 0, byChannel: emptyByChannel(), cost: 0 });
    const total = zero();
    const byChannel = new Map(CHANNELS.map((c) => [c, zero()]));
    const current = zero();
    const previous = zero();
    const [windowDay, monthDay, previousDay, previousEndDay] = [isoDay(windowFrom), isoDay(monthStart), isoDay(previousMonthStart), isoDay(previousEnd)];
    for (const r of rows) {
      if (r.day >= windowDay) {
        const d = days.get(r.day);
        if (d) { d.messages += r.messages; d.byChannel[r.channel] += r.messages; d.cost += r.cost; }
        add(total, r); add(byChannel.get(r.channel)!, r);
      }
      if (r.day >= monthDay) add(current, r);
      else if (r.day >= previousDay && r.day < previousEndDay) add(previous, r);
    }
    const ledgerSpend = -ledger.filter((e) => e.kind === 'DEBIT' || e.kind === 'REFUND').reduce((sum, e) => sum + e.amount, 0);
    return {
      window: { from: windowFrom.toISOString(), to: end.toISOString(), days: OVERVIEW_DAYS },
      daily: [...days.values()].map((d) => ({ date: d.date, messages: d.messages, byChannel: d.byChannel, spend: pesewasToGhs(d.cost) })),
      totals: { ...view(total), ledgerSpend: pesewasToGhs(ledgerSpend) },
      byChannel: CHANNELS.map((channel) => ({ channel, ...view(byChannel.get(channel)!) })),
      trends: {
        currentMonth: { from: monthStart.toISOString(), to: end.toISOString(), ...view(current) },
        previousMonth: { from: previousMonthStart.toISOString(), to: previousEnd.toISOString(), ...view(previous) },
        messagesChangePercent: percentChange(current.messages, previous.messages),
        spendChangePercent: percentChange(current.cost, previous.cost),
      },
    };
  }
}
