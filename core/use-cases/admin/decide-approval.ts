import * as v from 'valibot';
import type { ApprovalRequest } from '../../domain/approval.ts';
import { AppError } from '../../errors.ts';
import type { Clock } from '../../ports/clock.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import type { Storage } from '../../ports/storage.ts';
import { parseInput } from '../../validation.ts';
import type { AdminActor } from './admin-actor.ts';

/** Spec "Approval rejection": comment optional. Approving takes the same optional comment. */
export const DecideApprovalInput = v.object({
  comment: v.optional(v.nullable(v.pipe(v.string('must be a string'), v.trim(), v.maxLength(2000, 'must be at most 2000 characters')))),
});

export type ApprovalVerdict = 'APPROVED' | 'REJECTED';

/**
 * POST /admin/approvals/{id}/approve and /reject. In one transaction: the request is decided
 * (only while PENDING), a TEMPLATE or SENDER_ID subject becomes APPROVED or REJECTED with the comment as its
 * reviewComment, and the decision is written to the audit log (who, when). A CAMPAIGN subject is
 * left to the campaign code, which reads the decided request.
 * Errors: NOT_FOUND (unknown id), CONFLICT (already decided), VALIDATION_ERROR (comment).
 */
export class DecideApproval {
  readonly #deps: { storage: Storage; ids: IdGenerator; clock: Clock };
  constructor(deps: { storage: Storage; ids: IdGenerator; clock: Clock }) { this.#deps = deps; }

  async execute(admin: AdminActor, id: string, verdict: ApprovalVerdict, raw: unknown = {}): Promise<ApprovalRequest> {
    const input = parseInput(DecideApprovalInput, raw ?? {});
    const comment = input.comment || null;
    const { storage, ids, clock } = this.#deps;
    const now = clock.now();
    return storage.transaction(async (tx) => {
      const decided = await tx.approvals.decide(id, { status: verdict, decidedByUserId: admin.userId, decidedAt: now, comment });
      if (!decided) {
        const existing = await tx.approvals.findById(id);
        if (!existing) throw new AppError('NOT_FOUND', 'Approval request not found');
        throw new AppError('CONFLICT', `This approval request was already ${existing.status.toLowerCase()}`, { status: existing.status });
      }
      const variantLocale = decided.content['locale'];
      if (decided.kind === 'TEMPLATE' && typeof variantLocale === 'string') {
        // A locale variant's request (docs/templates.md, "Locales"): moves that variant while the request is still its own.
        await tx.templates.setVariantStatus(decided.organizationId, decided.subjectId, variantLocale, decided.id, verdict, comment, now);
      } else if (decided.kind === 'TEMPLATE') {
        await tx.templates.setStatus(decided.organizationId, decided.subjectId, verdict, comment, now);
      }
      if (decided.kind === 'SENDER_ID') {
        // Only the sender ID's current review round moves it (a deleted one is left deleted).
        const senderId = await tx.senderIds.findById(decided.organizationId, decided.subjectId);
        if (senderId?.approvalId === decided.id) await tx.senderIds.setStatus(decided.organizationId, decided.subjectId, verdict, comment, now);
      }
      await tx.auditLog.record({
        id: ids.next(), actorUserId: admin.userId, impersonatorUserId: null, organizationId: decided.organizationId,
        action: verdict === 'APPROVED' ? 'approval.approve' : 'approval.reject', target: `approval:${decided.id}`,
        details: { kind: decided.kind, subjectId: decided.subjectId, comment }, createdAt: now,
      });
      return decided;
    });
  }
}
