import type { AnalyticsRepository, DailyLedgerTotal, DailyMessageTotal, ProviderOutcomeTotal, TemplateUsage, Ucs2Message } from '../../core/ports/analytics-repository.ts';
import type { MemoryState } from './memory-state.ts';

const day = (d: Date) => d.toISOString().slice(0, 10);

export class InMemoryAnalyticsRepository implements AnalyticsRepository {
  readonly #state: MemoryState;
  constructor(state: MemoryState) { this.#state = state; }

  #messages(organizationId: string, from: Date, to: Date) {
    return [...this.#state.messages.values()].filter((m) => m.organizationId === organizationId && m.createdAt >= from && m.createdAt < to);
  }

  async dailyMessages(organizationId: string, from: Date, to: Date, outboxProviders: readonly string[] = []): Promise<DailyMessageTotal[]> {
    const totals = new Map<string, DailyMessageTotal>();
    for (const m of this.#messages(organizationId, from, to)) {
      const status = m.status === 'PENDING' ? 'QUEUED' : m.status;
      const key = `${day(m.createdAt)}|${m.channel}|${status}`;
      const t = totals.get(key) ?? { day: day(m.createdAt), channel: m.channel, status, messages: 0, segments: 0, cost: 0, outbox: 0 };
      t.messages += 1; t.segments += m.segments; t.cost += m.cost;
      if (m.provider !== null && outboxProviders.includes(m.provider)) t.outbox += 1;
      totals.set(key, t);
    }
    return [...totals.values()];
  }

  async dailyLedger(organizationId: string, from: Date, to: Date): Promise<DailyLedgerTotal[]> {
    const totals = new Map<string, DailyLedgerTotal>();
    for (const e of this.#state.ledger.filter((x) => x.organizationId === organizationId && x.createdAt >= from && x.createdAt < to)) {
      const key = `${day(e.createdAt)}|${e.kind}`;
      const t = totals.get(key) ?? { day: day(e.createdAt), kind: e.kind, amount: 0, entries: 0 };
      t.amount += e.amount; t.entries += 1;
      totals.set(key, t);
    }
    return [...totals.values()];
  }

  async providerOutcomes(organizationId: string, from: Date, to: Date): Promise<ProviderOutcomeTotal[]> {
    const totals = new Map<string, ProviderOutcomeTotal>();
    for (const m of this.#messages(organizationId, from, to)) {
      if (!m.provider || !['SENT', 'DELIVERED', 'FAILED'].includes(m.status)) continue;
      const t = totals.get(m.provider) ?? { provider: m.provider, accepted: 0, failed: 0 };
      if (m.status === 'FAILED') t.failed += 1; else t.accepted += 1;
      totals.set(m.provider, t);
    }
    return [...totals.values()];
  }

  async ucs2Sms(organizationId: string, from: Date, to: Date, limit: number): Promise<Ucs2Message[]> {
    return this.#messages(organizationId, from, to).filter((m) => m.channel === 'SMS' && m.encoding === 'UCS-2' && m.cost > 0)
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime()).slice(0, Math.min(limit, 5000))
      .map((m) => ({ body: m.body, segments: m.segments, cost: m.cost }));
  }

  async templateUsage(organizationId: string, from: Date, to: Date, limit: number): Promise<TemplateUsage[]> {
    const totals = new Map<string, TemplateUsage>();
    for (const m of this.#messages(organizationId, from, to)) {
      if (!m.templateId || m.cost <= 0) continue;
      const key = `${m.templateId}|${m.channel}|${m.country ?? ''}`;
      const t = totals.get(key) ?? { templateId: m.templateId, channel: m.channel, country: m.country, messages: 0, cost: 0 };
      t.messages += 1; t.cost += m.cost;
      totals.set(key, t);
    }
    return [...totals.values()].sort((a, b) => b.messages - a.messages).slice(0, Math.min(limit, 20));
  }
}
