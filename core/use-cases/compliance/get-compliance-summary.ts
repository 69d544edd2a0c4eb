import type { Storage } from '../../ports/storage.ts';

/** GET /compliance/summary: how many recipients the organization suppresses and how many of its approval requests wait. */
export class GetComplianceSummary {
  readonly #deps: { storage: Pick<Storage, 'suppressions' | 'approvals'> };
  constructor(deps: { storage: Pick<Storage, 'suppressions' | 'approvals'> }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }): Promise<{ suppressionCount: number; pendingApprovals: number }> {
    const { storage } = this.#deps;
    const [suppressions, pendingApprovals] = await Promise.all([
      storage.suppressions.list(scope.organizationId, 0, 1), storage.approvals.countPending(scope.organizationId),
    ]);
    return { suppressionCount: suppressions.total, pendingApprovals };
  }
}
