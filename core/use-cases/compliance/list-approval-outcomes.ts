import { approvalOutcomeView } from '../../domain/approval.ts';
import type { Storage } from '../../ports/storage.ts';

/** Most approval requests GET /compliance/approvals shows. */
export const MAX_APPROVALS_LISTED = 100;

export type ApprovalOutcomeView = ReturnType<typeof approvalOutcomeView>;

/**
 * GET /compliance/approvals: the organization's own approval requests, newest first (at most
 * {@link MAX_APPROVALS_LISTED}), with their status and the administrator's comment, so a tenant
 * learns why a template or campaign was rejected. Who decided is not shown to tenants.
 */
export class ListApprovalOutcomes {
  readonly #deps: { storage: Pick<Storage, 'approvals'> };
  constructor(deps: { storage: Pick<Storage, 'approvals'> }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }): Promise<ApprovalOutcomeView[]> {
    return (await this.#deps.storage.approvals.listByOrganization(scope.organizationId, MAX_APPROVALS_LISTED)).map(approvalOutcomeView);
  }
}
