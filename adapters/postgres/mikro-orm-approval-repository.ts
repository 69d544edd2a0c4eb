import type { InferEntity } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/sql';
import type { ApprovalDecision, ApprovalKind, ApprovalRequest, ApprovalStatus } from '../../core/domain/approval.ts';
import type { ApprovalRepository } from '../../core/ports/approval-repository.ts';
import { ApprovalRequestEntity } from './entities/template-entity.ts';

type Row = InferEntity<typeof ApprovalRequestEntity>;

export class MikroOrmApprovalRepository implements ApprovalRepository {
  readonly #em: EntityManager;
  constructor(em: EntityManager) { this.#em = em; }

  async insert(request: ApprovalRequest): Promise<void> {
    await this.#em.insert(ApprovalRequestEntity, { ...request });
  }

  async findById(id: string): Promise<ApprovalRequest | null> {
    const row = await this.#em.findOne(ApprovalRequestEntity, { id }, { disableIdentityMap: true });
    return row ? toApproval(row) : null;
  }

  async listPending(limit: number): Promise<ApprovalRequest[]> {
    const rows = await this.#em.find(ApprovalRequestEntity, { status: 'PENDING' }, { orderBy: { createdAt: 'asc', id: 'asc' }, limit, disableIdentityMap: true });
    return rows.map(toApproval);
  }

  async countPending(organizationId?: string): Promise<number> {
    return this.#em.count(ApprovalRequestEntity, organizationId ? { status: 'PENDING', organizationId } : { status: 'PENDING' });
  }

  async decide(id: string, decision: ApprovalDecision): Promise<ApprovalRequest | null> {
    const updated = await this.#em.nativeUpdate(ApprovalRequestEntity, { id, status: 'PENDING' }, { ...decision });
    return updated === 1 ? this.findById(id) : null;
  }

  async listByOrganization(organizationId: string, limit: number): Promise<ApprovalRequest[]> {
    const rows = await this.#em.find(ApprovalRequestEntity, { organizationId }, { orderBy: { createdAt: 'desc', id: 'desc' }, limit, disableIdentityMap: true });
    return rows.map(toApproval);
  }
}

function toApproval(row: Row): ApprovalRequest {
  return {
    id: row.id, organizationId: row.organizationId, kind: row.kind as ApprovalKind, subjectId: row.subjectId,
    status: row.status as ApprovalStatus, content: row.content, requestedByUserId: row.requestedByUserId ?? null,
    decidedByUserId: row.decidedByUserId ?? null, decidedAt: row.decidedAt ?? null, comment: row.comment ?? null, createdAt: row.createdAt,
  };
}
