import type { ApprovalRequest } from '../../domain/approval.ts';
import { TEMPLATE_CATEGORIES, type TemplateCategory } from '../../domain/channel.ts';
import { checkCompliance, type ComplianceResult } from '../../domain/compliance.ts';
import type { Storage } from '../../ports/storage.ts';

/** Most pending requests GET /admin/approvals shows (oldest first: the queue's head). */
export const MAX_PENDING_LISTED = 100;

export function pendingApprovalView(a: ApprovalRequest, compliance: ComplianceResult | null) {
  return {
    id: a.id, organizationId: a.organizationId, kind: a.kind, subjectId: a.subjectId, status: a.status, content: a.content, compliance,
    requestedByUserId: a.requestedByUserId, createdAt: a.createdAt.toISOString(),
  };
}

/**
 * GET /admin/approvals: pending template and campaign approvals, oldest first, with the content
 * and its compliance result: the one stored with the request (campaigns store theirs), else the
 * check run now on the content's subject, body, category and (when given) language.
 */
export class ListPendingApprovals {
  readonly #deps: { storage: Pick<Storage, 'approvals'> };
  constructor(deps: { storage: Pick<Storage, 'approvals'> }) { this.#deps = deps; }

  async execute() {
    const pending = await this.#deps.storage.approvals.listPending(MAX_PENDING_LISTED);
    return pending.map((a) => pendingApprovalView(a, complianceOf(a.content)));
  }
}

function complianceOf(content: Record<string, unknown>): ComplianceResult | null {
  const stored = content['compliance'];
  if (stored && typeof stored === 'object' && 'riskScore' in stored) return stored as ComplianceResult;
  const body = content['body'];
  if (typeof body !== 'string') return null;
  const category = TEMPLATE_CATEGORIES.find((c) => c === content['category']) ?? 'MARKETING';
  const subject = typeof content['subject'] === 'string' ? `${content['subject']}\n` : '';
  const language = typeof content['language'] === 'string' ? [content['language']] : undefined;
  return checkCompliance(`${subject}${body}`, category satisfies TemplateCategory, language);
}
