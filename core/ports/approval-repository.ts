import type { ApprovalDecision, ApprovalRequest } from '../domain/approval.ts';

/** Approval requests for platform administrators. Listing and deciding are admin (cross-tenant) operations. */
export interface ApprovalRepository {
  insert(request: ApprovalRequest): Promise<void>;
  findById(id: string): Promise<ApprovalRequest | null>;
  /** Pending first-in-first-out, at most `limit`. */
  listPending(limit: number): Promise<ApprovalRequest[]>;
  countPending(organizationId?: string): Promise<number>;
  /**
   * Records the decision on a request that is still PENDING and returns the updated request; null
   * when the id is unknown or the request was already decided (a request is decided once, even
   * when two administrators click at the same time).
   */
  decide(id: string, decision: ApprovalDecision): Promise<ApprovalRequest | null>;
  /** One organization's requests (every status), newest first, at most `limit`. Tenant-scoped. */
  listByOrganization(organizationId: string, limit: number): Promise<ApprovalRequest[]>;
}
