export type SenderIdStatus = 'PENDING' | 'APPROVED' | 'REJECTED';

/** Networks a sender ID may be registered on in Ghana (docs/sender-ids.md); ALL: every network. */
export const SENDER_ID_NETWORKS = ['ALL', 'MTN', 'TELECEL', 'AT'] as const;
export type SenderIdNetwork = (typeof SENDER_ID_NETWORKS)[number];

/** An alphanumeric sender ID an organization asked to send SMS under, reviewed by platform administrators. */
export interface SenderId {
  id: string;
  organizationId: string;
  /** As registered with the networks: 3-11 letters, digits and spaces, at least one letter. */
  name: string;
  purpose: string;
  sampleMessage: string;
  networks: SenderIdNetwork[];
  status: SenderIdStatus;
  approvalId: string | null;
  reviewComment: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * The sender ID rules aggregators apply in Ghana: 3 to 11 characters, letters, digits and spaces,
 * not only digits (a numeric sender is a phone number), no leading or trailing space.
 */
export const SENDER_ID_PATTERN = /^(?=.*[A-Za-z])[A-Za-z0-9](?:[A-Za-z0-9 ]{1,9}[A-Za-z0-9])$/;

/** Two spellings of one sender ID: names compare without regard to case. */
export function sameSenderName(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/**
 * Whether messages may go out under a sender ID in this status: live sends need APPROVED; sandbox
 * sends also take a PENDING one, so an integration can be built while the review runs.
 */
export function senderIdUsable(status: SenderIdStatus, sandbox: boolean): boolean {
  return status === 'APPROVED' || (sandbox && status === 'PENDING');
}

export function senderIdView(s: SenderId) {
  return {
    id: s.id, name: s.name, purpose: s.purpose, sampleMessage: s.sampleMessage, networks: s.networks, status: s.status,
    approvalId: s.approvalId, reviewComment: s.reviewComment, createdAt: s.createdAt.toISOString(), updatedAt: s.updatedAt.toISOString(),
  };
}
