import type { EntityManager } from '@mikro-orm/sql';
import type { Channel } from '../../core/domain/channel.ts';
import type { ChannelUsage, LedgerSummary } from '../../core/domain/payment.ts';
import type { BillingReportRepository } from '../../core/ports/billing-report-repository.ts';
import { sqlRows } from './sql-rows.ts';

type Amount = string | number | null;

/** Aggregates on the (organization_id, created_at) indexes of messages and ledger_entries. */
export class SqlBillingReportRepository implements BillingReportRepository {
  readonly #em: EntityManager;
  constructor(em: EntityManager) { this.#em = em; }

  async usageByChannel(organizationId: string, from: Date, to: Date): Promise<ChannelUsage[]> {
    const rows = await sqlRows<{ channel: string; messages: Amount; segments: Amount; cost: Amount }>(this.#em, `select channel,
        count(*) as messages, coalesce(sum(segments), 0) as segments, coalesce(sum(cost), 0) as cost
      from messages where organization_id = $1 and created_at >= $2 and created_at < $3 and status <> 'REJECTED'
      group by channel order by channel`, [organizationId, from, to]);
    return rows.map((r) => ({ channel: r.channel as Channel, messages: Number(r.messages), segments: Number(r.segments), cost: Number(r.cost) }));
  }

  async ledgerSummary(organizationId: string, from: Date, to: Date): Promise<LedgerSummary> {
    const rows = await sqlRows<Record<keyof LedgerSummary, Amount>>(this.#em, `select
        coalesce(sum(amount) filter (where created_at < $2), 0) as "openingBalance",
        coalesce(sum(amount) filter (where created_at >= $2 and kind = 'TOP_UP'), 0) as "topUps",
        coalesce(sum(amount) filter (where created_at >= $2 and kind = 'DEBIT'), 0) as "debits",
        coalesce(sum(amount) filter (where created_at >= $2 and kind = 'REFUND'), 0) as "refunds",
        coalesce(sum(amount) filter (where created_at >= $2 and kind in ('ADJUSTMENT', 'TRIAL_CREDIT')), 0) as "adjustments"
      from ledger_entries where organization_id = $1 and created_at < $3`, [organizationId, from, to]);
    const r = rows[0];
    return {
      openingBalance: Number(r?.openingBalance ?? 0), topUps: Number(r?.topUps ?? 0), debits: Number(r?.debits ?? 0),
      refunds: Number(r?.refunds ?? 0), adjustments: Number(r?.adjustments ?? 0),
    };
  }

  async organizationsWithWallets(afterId: string | null, limit: number): Promise<string[]> {
    const rows = await sqlRows<{ organization_id: string }>(this.#em, `select organization_id from wallets
      where ($1::text is null or organization_id > $1) order by organization_id limit $2`, [afterId, limit]);
    return rows.map((r) => r.organization_id);
  }
}
