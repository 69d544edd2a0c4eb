import { countKeyOf, EMPTY_COUNTS, type Campaign, type CampaignCounts } from '../../core/domain/campaign.ts';
import { AppError } from '../../core/errors.ts';
import type { CampaignRecipient, CampaignRepository } from '../../core/ports/campaign-repository.ts';
import { copy, type MemoryState } from './memory-state.ts';

export class InMemoryCampaignRepository implements CampaignRepository {
  readonly #state: MemoryState;
  constructor(state: MemoryState) { this.#state = state; }

  async insert(campaign: Campaign): Promise<void> { this.#state.campaigns.set(campaign.id, copy(campaign)); }

  async findById(organizationId: string, id: string): Promise<Campaign | null> {
    const hit = this.#state.campaigns.get(id);
    return hit && hit.organizationId === organizationId ? copy(hit) : null;
  }

  lock(organizationId: string, id: string): Promise<Campaign | null> { return this.findById(organizationId, id); }

  async list(organizationId: string, limit: number): Promise<Campaign[]> {
    return [...this.#state.campaigns.values()].filter((c) => c.organizationId === organizationId)
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1)).slice(0, limit).map(copy);
  }

  async update(campaign: Campaign): Promise<boolean> {
    const hit = this.#state.campaigns.get(campaign.id);
    if (!hit || hit.organizationId !== campaign.organizationId) return false;
    this.#state.campaigns.set(campaign.id, copy(campaign));
    return true;
  }

  async addRecipients(_organizationId: string, campaignId: string, recipients: readonly CampaignRecipient[]): Promise<void> {
    for (const r of recipients) {
      if (this.#state.campaignRecipients.has(`${campaignId}/${r.contactId}`)) throw new AppError('CONFLICT', 'campaign recipient already exists');
    }
    for (const r of recipients) this.#state.campaignRecipients.set(`${campaignId}/${r.contactId}`, { ...r, campaignId });
  }

  async lockDueScheduled(now: Date, limit: number): Promise<Campaign[]> {
    return [...this.#state.campaigns.values()]
      .filter((c) => c.status === 'SCHEDULED' && c.scheduledAt !== null && c.scheduledAt.getTime() <= now.getTime())
      .sort((a, b) => (a.scheduledAt?.getTime() ?? 0) - (b.scheduledAt?.getTime() ?? 0) || (a.id < b.id ? -1 : 1)).slice(0, limit).map(copy);
  }

  /** Counting in memory is cheap: always counted now. */
  async recentCounts(organizationId: string, campaignId: string): Promise<CampaignCounts> {
    return this.counts(organizationId, campaignId);
  }

  async counts(organizationId: string, campaignId: string): Promise<CampaignCounts> {
    const counts = { ...EMPTY_COUNTS };
    if (this.#state.campaigns.get(campaignId)?.organizationId !== organizationId) return counts;
    for (const r of this.#state.campaignRecipients.values()) {
      if (r.campaignId !== campaignId) continue;
      if (r.messageId === null) { counts.skipped += 1; continue; }
      counts.recipients += 1;
      const message = this.#state.messages.get(r.messageId);
      if (!message || message.organizationId !== organizationId) continue;
      const key = countKeyOf(message.status);
      if (key) counts[key] += 1;
    }
    return counts;
  }
}
