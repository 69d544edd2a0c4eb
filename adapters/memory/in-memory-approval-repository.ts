import type { ApprovalDecision, ApprovalRequest } from '../../core/domain/approval.ts';
import type { ApprovalRepository } from '../../core/ports/approval-repository.ts';
import { copy, type MemoryState } from './memory-state.ts';

export class InMemoryApprovalRepository implements ApprovalRepository {
  readonly #state: MemoryState;
  constructor(state: MemoryState) { this.#state = state; }

  async insert(request: ApprovalRequest): Promise<void> { this.#state.approvals.set(request.id, copy(request)); }

  async findById(id: string): Promise<ApprovalRequest | null> {
    const a = this.#state.approvals.get(id);
    return a ? copy(a) : null;
  }

  async listPending(limit: number): Promise<ApprovalRequest[]> {
    return [...this.#state.approvals.values()].filter((a) => a.status === 'PENDING')
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime()).slice(0, limit).map(copy);
  }

  async countPending(organizationId?: string): Promise<number> {
    return [...this.#state.approvals.values()].filter((a) => a.status === 'PENDING' && (!organizationId || a.organizationId === organizationId)).length;
  }

  async decide(id: string, decision: ApprovalDecision): Promise<ApprovalRequest | null> {
    const a = this.#state.approvals.get(id);
    if (!a || a.status !== 'PENDING') return null;
    Object.assign(a, { status: decision.status, decidedByUserId: decision.decidedByUserId, decidedAt: decision.decidedAt, comment: decision.comment });
    return copy(a);
  }

  async listByOrganization(organizationId: string, limit: number): Promise<ApprovalRequest[]> {
    return [...this.#state.approvals.values()].filter((a) => a.organizationId === organizationId)
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1)).slice(0, limit).map(copy);
  }
}
