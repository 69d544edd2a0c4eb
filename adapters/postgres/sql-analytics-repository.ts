import type { EntityManager } from '@mikro-orm/sql';
import type { Channel, DeliveryStatus } from '../../core/domain/channel.ts';
import type { LedgerEntry } from '../../core/domain/wallet.ts';
import type { AnalyticsRepository, DailyLedgerTotal, DailyMessageTotal, ProviderOutcomeTotal, TemplateUsage, Ucs2Message } from '../../core/ports/analytics-repository.ts';
import { sqlRows } from './sql-rows.ts';

/**
 * Analytics aggregates in SQL (bigint sums arrive as text and are converted here). Daily totals, ledger
 * totals and provider outcomes read the trigger-maintained roll-up `message_daily_stats` / `ledger_daily_stats` (migration 0010: exact,
 * updated in the same transaction as the messages), so a 30-day overview reads at most a few thousand
 * rows whatever the volume; the rest scan the organization's messages of the window.
 */
export class SqlAnalyticsRepository implements AnalyticsRepository {
  readonly #em: EntityManager;
  constructor(em: EntityManager) { this.#em = em; }

  async dailyMessages(organizationId: string, from: Date, to: Date, outboxProviders: readonly string[] = []): Promise<DailyMessageTotal[]> {
    const rows = await sqlRows<{ day: string; channel: Channel; status: Exclude<DeliveryStatus, 'PENDING'>; messages: string; segments: string; cost: string; outbox: string }>(this.#em,
      `select day::text as day, channel, status, sum(messages) as messages, sum(segments) as segments, sum(cost) as cost,
         coalesce(sum(messages) filter (where provider = any($4::text[])), 0) as outbox
       from message_daily_stats where organization_id = $1 and day >= ($2::timestamptz at time zone 'UTC')::date and day < ($3::timestamptz at time zone 'UTC')::date
       group by 1, 2, 3 having sum(messages) <> 0`, [organizationId, from, to, [...outboxProviders]]);
    return rows.map((r) => ({ day: r.day, channel: r.channel, status: r.status, messages: Number(r.messages), segments: Number(r.segments), cost: Number(r.cost), outbox: Number(r.outbox) }));
  }

  async dailyLedger(organizationId: string, from: Date, to: Date): Promise<DailyLedgerTotal[]> {
    const rows = await sqlRows<{ day: string; kind: LedgerEntry['kind']; amount: string; entries: string }>(this.#em,
      `select day::text as day, kind, sum(amount) as amount, sum(entries) as entries
       from ledger_daily_stats where organization_id = $1 and day >= ($2::timestamptz at time zone 'UTC')::date and day < ($3::timestamptz at time zone 'UTC')::date
       group by 1, 2 having sum(entries) <> 0`, [organizationId, from, to]);
    return rows.map((r) => ({ day: r.day, kind: r.kind, amount: Number(r.amount), entries: Number(r.entries) }));
  }

  async providerOutcomes(organizationId: string, from: Date, to: Date): Promise<ProviderOutcomeTotal[]> {
    const rows = await sqlRows<{ provider: string; accepted: string; failed: string }>(this.#em,
      `select provider, coalesce(sum(messages) filter (where status in ('SENT', 'DELIVERED')), 0) as accepted,
         coalesce(sum(messages) filter (where status = 'FAILED'), 0) as failed
       from message_daily_stats where organization_id = $1 and day >= ($2::timestamptz at time zone 'UTC')::date and day < ($3::timestamptz at time zone 'UTC')::date
       and provider <> '' and status in ('SENT', 'DELIVERED', 'FAILED') group by provider having sum(messages) <> 0`, [organizationId, from, to]);
    return rows.map((r) => ({ provider: r.provider, accepted: Number(r.accepted), failed: Number(r.failed) }));
  }

  async ucs2Sms(organizationId: string, from: Date, to: Date, limit: number): Promise<Ucs2Message[]> {
    const rows = await sqlRows<{ body: string; segments: number; cost: string }>(this.#em,
      `select body, segments, cost from messages where organization_id = $1 and channel = 'SMS' and created_at >= $2 and created_at < $3
       and encoding = 'UCS-2' and cost > 0 order by created_at desc, id desc limit $4`, [organizationId, from, to, Math.min(limit, 5000)]);
    return rows.map((r) => ({ body: r.body, segments: Number(r.segments), cost: Number(r.cost) }));
  }

  async templateUsage(organizationId: string, from: Date, to: Date, limit: number): Promise<TemplateUsage[]> {
    const rows = await sqlRows<{ template_id: string; channel: Channel; country: string | null; messages: string; cost: string }>(this.#em,
      `select template_id, channel, country, count(*) as messages, sum(cost) as cost from messages
       where organization_id = $1 and created_at >= $2 and created_at < $3 and template_id is not null and cost > 0
       group by 1, 2, 3 order by 4 desc limit $4`, [organizationId, from, to, Math.min(limit, 20)]);
    return rows.map((r) => ({ templateId: r.template_id, channel: r.channel, country: r.country, messages: Number(r.messages), cost: Number(r.cost) }));
  }
}
