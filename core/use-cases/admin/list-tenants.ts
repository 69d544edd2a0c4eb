import * as v from 'valibot';
import { pesewasToGhs } from '../../domain/money.ts';
import { WALLET_CURRENCY } from '../../domain/wallet.ts';
import type { TenantSummary } from '../../ports/platform-report-repository.ts';
import type { Storage } from '../../ports/storage.ts';
import { parseInput } from '../../validation.ts';
import { pageQueryFields, toPage, withoutBlankValues } from '../compliance/page-query.ts';

export const ListTenantsInput = v.object({
  ...pageQueryFields,
  search: v.optional(v.pipe(v.string('must be a string'), v.trim(), v.maxLength(200, 'must be at most 200 characters'),
    v.description('Part of the organization name (case-insensitive), or its exact id'))),
});

export function tenantView(t: TenantSummary) {
  const o = t.organization;
  return {
    id: o.id, name: o.name, industry: o.industry, paused: o.paused, createdAt: o.createdAt.toISOString(),
    wallet: { balance: pesewasToGhs(t.walletBalance), currency: WALLET_CURRENCY }, memberCount: t.memberCount,
  };
}

/** GET /admin/tenants: every organization, newest first, paged, with wallet balance and member count. Errors: VALIDATION_ERROR. */
export class ListTenants {
  readonly #deps: { storage: Pick<Storage, 'platformReports'> };
  constructor(deps: { storage: Pick<Storage, 'platformReports'> }) { this.#deps = deps; }

  async execute(query: unknown = {}) {
    const { page, limit, search } = parseInput(ListTenantsInput, withoutBlankValues(query));
    const found = await this.#deps.storage.platformReports.listTenants({ search: search || undefined, offset: (page - 1) * limit, limit });
    return toPage(found.items.map(tenantView), page, limit, found.total);
  }
}
