import type { Campaign, CampaignCounts } from '../domain/campaign.ts';

export interface CampaignRecipient {
  contactId: string;
  /** The message created for the contact, or null when the contact was skipped. */
  messageId: string | null;
  skipReason: string | null;
}

/** Campaigns and their recipients. Tenant-scoped; a contact is a recipient of a campaign at most once. */
export interface CampaignRepository {
  insert(campaign: Campaign): Promise<void>;
  findById(organizationId: string, id: string): Promise<Campaign | null>;
  /** As findById, holding a row lock until the surrounding transaction ends (fan-out batches run one at a time). */
  lock(organizationId: string, id: string): Promise<Campaign | null>;
  /** Newest first, at most `limit`. */
  list(organizationId: string, limit: number): Promise<Campaign[]>;
  /** Replaces the stored fields; false when it does not exist. */
  update(campaign: Campaign): Promise<boolean>;
  /** Records recipients; a contact already recorded for the campaign throws CONFLICT (never two messages). */
  addRecipients(organizationId: string, campaignId: string, recipients: readonly CampaignRecipient[]): Promise<void>;
  /** Exact delivery counts of the campaign's recipients' messages, counted now (the completion check relies on it). */
  counts(organizationId: string, campaignId: string): Promise<CampaignCounts>;
  /**
   * Counts for views (GET /campaigns/{id}, the list, progress polls): the latest counted at most
   * `maxAgeSeconds` ago, or counted now when there is none that recent. While another reader is counting
   * the same campaign, an older count may be answered rather than a second count run. Never counts of
   * another organization's campaign.
   */
  recentCounts(organizationId: string, campaignId: string, maxAgeSeconds: number): Promise<CampaignCounts>;
  /**
   * Inside a transaction: SCHEDULED campaigns of every organization whose `scheduledAt` is at or before
   * `now`, at most `limit`, earliest first, each row locked until the transaction ends; rows another
   * transaction holds are skipped (the scheduler starts a campaign once, docs/scheduling.md).
   */
  lockDueScheduled(now: Date, limit: number): Promise<Campaign[]>;
}
