import type { Channel } from '../../core/domain/channel.ts';
import type { ChannelUsage, LedgerSummary } from '../../core/domain/payment.ts';
import type { BillingReportRepository } from '../../core/ports/billing-report-repository.ts';
import type { MemoryState } from './memory-state.ts';

export class InMemoryBillingReportRepository implements BillingReportRepository {
  readonly #state: MemoryState;
  constructor(state: MemoryState) { this.#state = state; }

  async usageByChannel(organizationId: string, from: Date, to: Date): Promise<ChannelUsage[]> {
    const byChannel = new Map<Channel, ChannelUsage>();
    for (const m of this.#state.messages.values()) {
      if (m.organizationId !== organizationId || m.status === 'REJECTED' || m.createdAt < from || m.createdAt >= to) continue;
      const row = byChannel.get(m.channel) ?? { channel: m.channel, messages: 0, segments: 0, cost: 0 };
      row.messages += 1;
      row.segments += m.segments;
      row.cost += m.cost;
      byChannel.set(m.channel, row);
    }
    return [...byChannel.values()].sort((a, b) => a.channel.localeCompare(b.channel));
  }

  async ledgerSummary(organizationId: string, from: Date, to: Date): Promise<LedgerSummary> {
    const summary: LedgerSummary = { openingBalance: 0, topUps: 0, debits: 0, refunds: 0, adjustments: 0 };
    for (const e of this.#state.ledger) {
      if (e.organizationId !== organizationId || e.createdAt >= to) continue;
      if (e.createdAt < from) { summary.openingBalance += e.amount; continue; }
      if (e.kind === 'TOP_UP') summary.topUps += e.amount;
      else if (e.kind === 'DEBIT') summary.debits += e.amount;
      else if (e.kind === 'REFUND') summary.refunds += e.amount;
      else summary.adjustments += e.amount;
    }
    return summary;
  }

  async organizationsWithWallets(afterId: string | null, limit: number): Promise<string[]> {
    return [...this.#state.wallets.keys()].filter((id) => afterId === null || id > afterId).sort().slice(0, limit);
  }
}
