import { addDays, deliveryRate, lookalikeRescue, startOfUtcDay } from '../../domain/analytics.ts';
import { pesewasToGhs } from '../../domain/money.ts';
import { findRule, priceMessage } from '../../domain/pricing.ts';
import type { Clock } from '../../ports/clock.ts';
import type { PricingRepository } from '../../ports/pricing-repository.ts';
import type { Storage } from '../../ports/storage.ts';
import type { NetworkAnalyticsRepository, NetworkFigures } from '../../ports/network-analytics-repository.ts';
import { betterRoute } from '../../domain/network-route.ts';

export const MAX_RECOMMENDATIONS = 4;
const WINDOW_DAYS = 30;
/** Thresholds (docs/analytics.md). */
export const RECOMMENDATION_RULES = {
  ucs2Scanned: 5_000, providerMinOutcomes: 20, providerPoorRate: 0.9, lowBalanceDays: 14, frequentTemplateMessages: 50,
} as const;

export interface Recommendation {
  kind: 'UCS2_LOOKALIKE_CHARACTERS' | 'PROVIDER_DELIVERY_RATE' | 'LOW_BALANCE' | 'CHEAPER_CHANNEL' | 'BETTER_NETWORK_ROUTE';
  title: string;
  detail: string;
  /** The figures that triggered it (money in GHS). */
  figures: Record<string, unknown>;
  /** Larger first. */
  priority: number;
}

interface RecommendationDeps {
  storage: Pick<Storage, 'analytics' | 'wallets'>;
  pricing: PricingRepository;
  clock: Clock;
  /** Per-network figures (docs/routing.md): with it, a network a provider delivers clearly better than the one carrying it is named. */
  networks?: NetworkAnalyticsRepository | undefined;
}

/**
 * GET /analytics/recommendations: at most four, each computed from the organization's own last 30
 * days (rules and thresholds in docs/analytics.md), most urgent first; none when nothing applies.
 */
export class GetAnalyticsRecommendations {
  readonly #deps: RecommendationDeps;
  constructor(deps: RecommendationDeps) { this.#deps = deps; }

  async execute(scope: { organizationId: string }): Promise<Recommendation[]> {
    const { storage, clock } = this.#deps;
    const end = addDays(startOfUtcDay(clock.now()), 1);
    const from = addDays(end, -WINDOW_DAYS);
    const org = scope.organizationId;
    const [ucs2, providers, daily, wallet, templates, rules] = await Promise.all([
      storage.analytics.ucs2Sms(org, from, end, RECOMMENDATION_RULES.ucs2Scanned), storage.analytics.providerOutcomes(org, from, end),
      storage.analytics.dailyMessages(org, from, end), storage.wallets.get(org), storage.analytics.templateUsage(org, from, end, 5), this.#deps.pricing.listActive(),
    ]);
    const found: Recommendation[] = [];

    let lookalikeMessages = 0; let extraSegments = 0; let extraCost = 0; const characters = new Map<string, number>();
    for (const m of ucs2) {
      const rescue = lookalikeRescue(m.body);
      if (!rescue || rescue.gsmSegments >= m.segments) continue;
      lookalikeMessages += 1;
      extraSegments += m.segments - rescue.gsmSegments;
      extraCost += Math.round((m.cost / m.segments) * (m.segments - rescue.gsmSegments));
      for (const ch of rescue.characters) characters.set(ch, (characters.get(ch) ?? 0) + 1);
    }
    if (lookalikeMessages > 0) {
      const top = [...characters].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([ch, n]) => ({ character: ch, codePoint: `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`, messages: n }));
      found.push({
        kind: 'UCS2_LOOKALIKE_CHARACTERS', priority: extraCost,
        title: 'Replace look-alike characters to stay in GSM-7',
        detail: `${lookalikeMessages} SMS were sent as UCS-2 only because of characters with a GSM-7 look-alike (${top.map((t) => t.codePoint).join(', ')}); `
          + `they needed ${extraSegments} extra segments costing GHS ${pesewasToGhs(extraCost).toFixed(2)}.`,
        figures: { messages: lookalikeMessages, extraSegments, extraCost: pesewasToGhs(extraCost), characters: top, scannedUpTo: RECOMMENDATION_RULES.ucs2Scanned },
      });
    }

    const poor = providers.map((p) => ({ ...p, rate: deliveryRate(p.accepted, p.failed) ?? 1, outcomes: p.accepted + p.failed }))
      .filter((p) => p.outcomes >= RECOMMENDATION_RULES.providerMinOutcomes && p.rate < RECOMMENDATION_RULES.providerPoorRate).sort((a, b) => a.rate - b.rate)[0];
    if (poor) {
      found.push({
        kind: 'PROVIDER_DELIVERY_RATE', priority: 10_000 + poor.failed,
        title: `Provider ${poor.provider} delivers poorly`,
        detail: `${poor.failed} of ${poor.outcomes} messages through ${poor.provider} failed in the last ${WINDOW_DAYS} days (delivery rate ${(poor.rate * 100).toFixed(1)}%).`,
        figures: { provider: poor.provider, deliveryRate: poor.rate, messages: poor.outcomes, failed: poor.failed },
      });
    }

    const spend = daily.reduce((s, r) => s + r.cost, 0);
    const averageDaily = spend / WINDOW_DAYS;
    if (wallet && averageDaily > 0) {
      const daysLeft = Math.floor(wallet.balance / averageDaily);
      if (daysLeft < RECOMMENDATION_RULES.lowBalanceDays) {
        found.push({
          kind: 'LOW_BALANCE', priority: 1_000_000 - daysLeft,
          title: 'Top up soon', detail: `At your average spend of GHS ${pesewasToGhs(Math.round(averageDaily)).toFixed(2)} a day, the balance of GHS ${pesewasToGhs(wallet.balance).toFixed(2)} lasts about ${daysLeft} days.`,
          figures: { balance: pesewasToGhs(wallet.balance), averageDailySpend: pesewasToGhs(Math.round(averageDaily)), daysLeft, windowDays: WINDOW_DAYS },
        });
      }
    }

    const cheaper = templates.filter((t) => t.messages >= RECOMMENDATION_RULES.frequentTemplateMessages && (t.channel === 'SMS' || t.channel === 'VOICE'))
      .map((t) => {
        const rule = findRule(rules, 'WHATSAPP', t.country);
        const alternative = rule ? priceMessage(rule) * t.messages : null;
        return { ...t, alternative, savings: alternative === null ? 0 : t.cost - alternative };
      }).filter((t) => t.savings > 0).sort((a, b) => b.savings - a.savings)[0];
    if (cheaper) {
      found.push({
        kind: 'CHEAPER_CHANNEL', priority: cheaper.savings,
        title: 'A cheaper channel for a frequent message',
        detail: `Template ${cheaper.templateId} went out ${cheaper.messages} times by ${cheaper.channel} for GHS ${pesewasToGhs(cheaper.cost).toFixed(2)}; `
          + `by WHATSAPP it would have cost GHS ${pesewasToGhs(cheaper.alternative!).toFixed(2)}.`,
        figures: { templateId: cheaper.templateId, channel: cheaper.channel, messages: cheaper.messages, cost: pesewasToGhs(cheaper.cost),
          alternativeChannel: 'WHATSAPP', alternativeCost: pesewasToGhs(cheaper.alternative!), savings: pesewasToGhs(cheaper.savings) },
      });
    }
    const byNetwork = new Map<string, NetworkFigures[]>();
    for (const r of this.#deps.networks ? await this.#deps.networks.byNetwork(org, from, end) : []) byNetwork.set(`${r.country} ${r.network}`, [...(byNetwork.get(`${r.country} ${r.network}`) ?? []), r]);
    const routes = [...byNetwork].flatMap(([key, list]) => { const better = betterRoute(list); return better ? [{ key, ...better }] : []; })
      .sort((a, b) => (b.toRate - b.fromRate) * b.fromMessages - (a.toRate - a.fromRate) * a.fromMessages);
    const best = routes[0];
    if (best) {
      const lost = Math.round((best.toRate - best.fromRate) * best.fromMessages);
      found.push({
        kind: 'BETTER_NETWORK_ROUTE', priority: 5_000 + lost,
        title: `Route ${best.key} through ${best.to}`,
        detail: `${best.to} delivered ${(best.toRate * 100).toFixed(1)}% of your ${best.key} messages against ${(best.fromRate * 100).toFixed(1)}% through ${best.from}, which carried most of them (docs/routing.md).`,
        figures: { network: best.key, from: best.from, to: best.to, fromRate: best.fromRate, toRate: best.toRate, fromMessages: best.fromMessages, toMessages: best.toMessages },
      });
    }
    return found.sort((a, b) => b.priority - a.priority).slice(0, MAX_RECOMMENDATIONS);
  }
}
