import type { Channel } from './channel.ts';
import { pesewasToGhs, type Pesewas } from './money.ts';
import type { ContactAddressField } from './segment-rules.ts';
import { progressView, type FanOutProgress } from './campaign-progress.ts';

/**
 * Campaign states (docs/campaigns.md):
 * DRAFT -> (send) SCHEDULED | SENDING; PENDING_APPROVAL -> (administrator) approved: DRAFT, rejected: REJECTED;
 * SCHEDULED -> (scheduledAt reached) SENDING; SENDING -> COMPLETED | FAILED;
 * SENDING (fan-out not done) -> (pause) PAUSED -> (resume) SENDING;
 * DRAFT, PENDING_APPROVAL, SCHEDULED, SENDING, PAUSED -> (cancel) CANCELLED.
 */
export const CAMPAIGN_STATUSES = ['DRAFT', 'PENDING_APPROVAL', 'REJECTED', 'SCHEDULED', 'SENDING', 'PAUSED', 'COMPLETED', 'CANCELLED', 'FAILED'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];
export const CANCELLABLE: readonly CampaignStatus[] = ['DRAFT', 'PENDING_APPROVAL', 'SCHEDULED', 'SENDING', 'PAUSED'];

export interface Campaign {
  id: string;
  organizationId: string;
  name: string;
  channel: Channel;
  templateId: string | null;
  segmentId: string | null;
  scheduledAt: Date | null;
  status: CampaignStatus;
  /** Set when the template's compliance score needed a platform administrator's approval. */
  approvalRequestId: string | null;
  riskScore: number | null;
  /** Fan-out progress: the last contact id handed to the pipeline (keyset cursor). */
  cursor: string | null;
  fanOutDone: boolean;
  /** Audience size, contacts handed over and recent rates, for the view's progress and ETA. */
  progress: FanOutProgress;
  failureReason: string | null;
  createdByUserId: string | null;
  createdAt: Date;
  updatedAt: Date;
  startedAt: Date | null;
  completedAt: Date | null;
  cancelledAt: Date | null;
}

/** Per-campaign delivery counts: recipients handed to the pipeline, by their message's status. */
export interface CampaignCounts {
  recipients: number;
  queued: number;
  pending: number;
  sent: number;
  delivered: number;
  failed: number;
  rejected: number;
  /** Held for their send window or quiet hours' end (docs/consent.md); cancelled before their time. */
  scheduled: number;
  cancelled: number;
  /** Contacts in the audience that could not be messaged (no valid address for the channel ...). */
  skipped: number;
}

export const EMPTY_COUNTS: CampaignCounts = { recipients: 0, queued: 0, pending: 0, sent: 0, delivered: 0, failed: 0, rejected: 0, scheduled: 0, cancelled: 0, skipped: 0 };

/**
 * The count a recipient's message status falls under. A SCHEDULED message (held for a send window)
 * keeps the campaign from completing until it goes out (RunCampaign); a CANCELLED one is final.
 */
export function countKeyOf(status: string): Exclude<keyof CampaignCounts, 'recipients' | 'skipped'> | null {
  const key = status.toLowerCase();
  return key === 'queued' || key === 'pending' || key === 'sent' || key === 'delivered' || key === 'failed' || key === 'rejected'
    || key === 'scheduled' || key === 'cancelled' ? key : null;
}

/** The contact field a channel sends to. */
export function addressKindOf(channel: Channel): ContactAddressField {
  return channel === 'EMAIL' ? 'email' : channel === 'PUSH' ? 'fcmToken' : 'phone';
}

/** The API's campaign record; `now` dates the ETA in `progress`. */
export function campaignView(c: Campaign, counts: CampaignCounts, approvalStatus: string | null, now: Date) {
  return {
    id: c.id, name: c.name, channel: c.channel, templateId: c.templateId, segmentId: c.segmentId,
    scheduledAt: c.scheduledAt?.toISOString() ?? null, status: c.status, approvalRequestId: c.approvalRequestId, approvalStatus,
    riskScore: c.riskScore, failureReason: c.failureReason, counts, progress: progressView(c.status, c.fanOutDone, c.progress, counts, now),
    createdAt: c.createdAt.toISOString(), updatedAt: c.updatedAt.toISOString(), startedAt: c.startedAt?.toISOString() ?? null,
    completedAt: c.completedAt?.toISOString() ?? null, cancelledAt: c.cancelledAt?.toISOString() ?? null,
  };
}

export function costView(pesewas: Pesewas): number {
  return pesewasToGhs(pesewas);
}
