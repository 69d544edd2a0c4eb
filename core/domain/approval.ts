export type ApprovalKind = 'TEMPLATE' | 'CAMPAIGN' | 'SENDER_ID';
export type ApprovalStatus = 'PENDING' | 'APPROVED' | 'REJECTED';

/** A request for a platform administrator to approve a risky template or campaign. */
export interface ApprovalRequest {
  id: string;
  organizationId: string;
  kind: ApprovalKind;
  subjectId: string;
  status: ApprovalStatus;
  /** What the administrator reviews: the content and, where computed, its compliance result. */
  content: Record<string, unknown>;
  requestedByUserId: string | null;
  decidedByUserId: string | null;
  decidedAt: Date | null;
  comment: string | null;
  createdAt: Date;
}

/** A platform administrator's decision on a PENDING request. */
export interface ApprovalDecision {
  status: Exclude<ApprovalStatus, 'PENDING'>;
  decidedByUserId: string;
  decidedAt: Date;
  comment: string | null;
}

export function approvalOutcomeView(a: ApprovalRequest) {
  return {
    id: a.id, kind: a.kind, subjectId: a.subjectId, status: a.status, comment: a.comment,
    decidedAt: a.decidedAt?.toISOString() ?? null, createdAt: a.createdAt.toISOString(),
  };
}
