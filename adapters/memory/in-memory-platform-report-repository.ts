import type { PlatformReportRepository, PlatformTotals, TenantSummary } from '../../core/ports/platform-report-repository.ts';
import { copy, type MemoryState } from './memory-state.ts';

export class InMemoryPlatformReportRepository implements PlatformReportRepository {
  readonly #state: MemoryState;
  constructor(state: MemoryState) { this.#state = state; }

  async listTenants(options: { search?: string | undefined; offset: number; limit: number }): Promise<{ items: TenantSummary[]; total: number }> {
    const search = options.search?.toLowerCase();
    const matching = [...this.#state.organizations.values()]
      .filter((o) => !search || o.name.toLowerCase().includes(search) || o.id === options.search)
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1));
    const members = [...this.#state.memberships.values()];
    const items = matching.slice(options.offset, options.offset + options.limit).map((organization) => ({
      organization: copy(organization),
      walletBalance: this.#state.wallets.get(organization.id)?.balance ?? 0,
      memberCount: members.filter((m) => m.organizationId === organization.id).length,
    }));
    return { items, total: matching.length };
  }

  async totals(): Promise<PlatformTotals> {
    const sum = (kind: string) => this.#state.ledger.filter((e) => e.kind === kind).reduce((s, e) => s + e.amount, 0);
    const wallets = [...this.#state.wallets.values()];
    const perOrg = new Map<string, { trial: number; net: number }>();
    for (const e of this.#state.ledger) {
      const o = perOrg.get(e.organizationId) ?? { trial: 0, net: 0 };
      if (e.kind === 'TRIAL_CREDIT') o.trial += e.amount;
      if (e.kind === 'DEBIT' || e.kind === 'REFUND') o.net -= e.amount;
      perOrg.set(e.organizationId, o);
    }
    const trialCreditsUsed = [...perOrg.values()].reduce((s, o) => s + Math.min(o.trial, Math.max(o.net, 0)), 0);
    return {
      topUps: sum('TOP_UP'), debits: -sum('DEBIT'), refunds: sum('REFUND'), trialCredits: sum('TRIAL_CREDIT'), trialCreditsUsed, messageCount: this.#state.messages.size,
      walletBalance: wallets.reduce((s, w) => s + w.balance, 0), walletCount: wallets.length,
    };
  }
}
