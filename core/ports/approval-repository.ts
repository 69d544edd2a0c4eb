import type { ApprovalRequest } from '../domain/approval.ts';

/** Approval requests for platform administrators. Listing and deciding are admin (cross-tenant) operations. */
export interface ApprovalRepository {
  insert(request: ApprovalRequest): Promise<void>;
  findById(id: string): Promise<ApprovalRequest | null>;
  /** Pending first-in-first-out, at most `limit`. */
  listPending(limit: number): Promise<ApprovalRequest[]>;
  countPending(organizationId?: string): Promise<number>;
}
