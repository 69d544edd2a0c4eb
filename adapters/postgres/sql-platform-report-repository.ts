import type { EntityManager } from '@mikro-orm/sql';
import type { PlatformReportRepository, PlatformTotals, TenantSummary } from '../../core/ports/platform-report-repository.ts';
import { toOrganization } from './mikro-orm-organization-repository.ts';
import { OrganizationEntity } from './entities/organization-entity.ts';
import { entityColumns, sqlRows, toDate } from './sql-rows.ts';

/** Admin reports in plain SQL: one query per page of tenants (balance and member count joined), one for the totals. */
export class SqlPlatformReportRepository implements PlatformReportRepository {
  readonly #em: EntityManager;
  constructor(em: EntityManager) { this.#em = em; }

  async listTenants(options: { search?: string | undefined; offset: number; limit: number }): Promise<{ items: TenantSummary[]; total: number }> {
    const search = options.search ?? null;
    const where = `($1::text is null or o.name ilike '%' || replace(replace(replace($1, '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%' or o.id = $1)`;
    const columns = entityColumns(this.#em, OrganizationEntity).selectList.replace(/(^|,\s*)(\w+)/g, '$1o.$2');
    const [rows, counted] = await Promise.all([
      sqlRows<Record<string, unknown>>(this.#em, `select ${columns}, coalesce(w.balance, 0) as "walletBalance",
          (select count(*) from memberships m where m.organization_id = o.id) as "memberCount"
        from organizations o left join wallets w on w.organization_id = o.id
        where ${where} order by o.created_at desc, o.id desc offset $2 limit $3`, [search, options.offset, options.limit]),
      sqlRows<{ n: string | number }>(this.#em, `select count(*) as n from organizations o where ${where}`, [search]),
    ]);
    const items = rows.map((row) => ({
      organization: toOrganization({ ...row, createdAt: toDate(row['createdAt'] as string)!, updatedAt: toDate(row['updatedAt'] as string)! } as never),
      walletBalance: Number(row['walletBalance']), memberCount: Number(row['memberCount']),
    }));
    return { items, total: Number(counted[0]?.n ?? 0) };
  }

  async totals(): Promise<PlatformTotals> {
    const [row] = await sqlRows<Record<string, string | number | null>>(this.#em, `select
        (select coalesce(sum(amount), 0) from ledger_entries where kind = 'TOP_UP') as "topUps",
        (select coalesce(-sum(amount), 0) from ledger_entries where kind = 'DEBIT') as "debits",
        (select coalesce(sum(amount), 0) from ledger_entries where kind = 'REFUND') as "refunds",
        (select coalesce(sum(amount), 0) from ledger_entries where kind = 'TRIAL_CREDIT') as "trialCredits",
        (select coalesce(sum(least(t.trial, greatest(coalesce(u.net, 0), 0))), 0)
           from (select organization_id, sum(amount) as trial from ledger_entries where kind = 'TRIAL_CREDIT' group by organization_id) t
           left join (select organization_id, -sum(amount) as net from ledger_entries where kind in ('DEBIT', 'REFUND') group by organization_id) u
             on u.organization_id = t.organization_id) as "trialCreditsUsed",
        (select count(*) from messages) as "messageCount",
        (select coalesce(sum(balance), 0) from wallets) as "walletBalance",
        (select count(*) from wallets) as "walletCount"`, []);
    const n = (key: string) => Number(row?.[key] ?? 0);
    return { topUps: n('topUps'), debits: n('debits'), refunds: n('refunds'), trialCredits: n('trialCredits'), trialCreditsUsed: n('trialCreditsUsed'), messageCount: n('messageCount'), walletBalance: n('walletBalance'), walletCount: n('walletCount') };
  }
}
