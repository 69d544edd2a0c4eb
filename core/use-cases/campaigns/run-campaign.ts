import { linkTrackingOption, type LinkTrackingDeps } from '../links/link-tracking.ts';
import type { SendTiming } from '../messaging/send-timing.ts';
import { optOutOption } from '../consent/opt-out-link-text.ts';
import type { OptOutLinkSigner } from '../../ports/opt-out-links.ts';
import { AppError, isAppError } from '../../errors.ts';
import type { Campaign } from '../../domain/campaign.ts';
import { afterBatch, afterPoll, settledOf } from '../../domain/campaign-progress.ts';
import type { PricingRule } from '../../domain/pricing.ts';
import type { Clock } from '../../ports/clock.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import { QUEUES } from '../../ports/job-queue.ts';
import type { PricingRepository } from '../../ports/pricing-repository.ts';
import type { Repositories, Storage } from '../../ports/storage.ts';
import { acceptMessages, type OwnAccountPricing } from '../messaging/accept-messages.ts';
import type { NetworkKnowledge, PreparedMessage } from '../messaging/message-preparation.ts';
import type { FraudLimits } from '../messaging/send-context.ts';
import { publishOutboundEvent } from '../webhooks/publish-outbound-event.ts';
import { campaignAudience, prepareForContact, withinTransaction } from './campaign-support.ts';

export const FAN_OUT_BATCH = 1_000;
/** While recipients' messages are still queued, the job checks again after this many seconds. */
export const COMPLETION_POLL_SECONDS = 5;
/** While the only unfinished messages are SCHEDULED (a send window), the job checks again after this many seconds. */
export const SCHEDULED_POLL_SECONDS = 60;
/** Batches one job run handles before it re-enqueues the rest. */
export const BATCHES_PER_RUN = 200;

export interface RunCampaignDeps {
  /** Opt-out links in campaign messages (docs/consent.md). */
  optOutLinks?: OptOutLinkSigner | undefined;
  linkTracking?: LinkTrackingDeps | undefined;
  linkRetentionMonths?: number | undefined;
  /** Send windows and quiet hours: a campaign's messages outside them are SCHEDULED for their next opening (docs/consent.md). */
  timing?: SendTiming | undefined;
  /** Organizations' own vendor accounts: their routes are charged the own-account fee (docs/providers.md). */
  ownAccounts?: OwnAccountPricing | undefined;
  /** Numbers' networks from memory (prefix tables plus corrections, docs/routing.md): recipients are priced and routed by them. */
  networks?: NetworkKnowledge | undefined;
  /** Pesewas: a batch's debit crossing under it enqueues the owner's low-balance alert. */
  lowBalanceThreshold?: number | undefined;
  storage: Storage;
  pricing: PricingRepository;
  clock: Clock;
  ids: IdGenerator;
  fraud: FraudLimits;
  batchSize?: number;
  completionPollSeconds?: number;
  maxBatchesPerRun?: number;
}

/**
 * The worker's campaign job (`campaign-run`, docs/campaigns.md). Starts a due SCHEDULED campaign,
 * then fans out in batches: each batch, in one transaction under the campaign's row lock, takes the
 * next contacts after the cursor (keyset by id), runs them through the send pipeline
 * (acceptMessages: fraud, suppression, pricing, one wallet debit, bulk insert, bulk enqueue), records
 * them as recipients (a contact at most once per campaign) and moves the cursor. A crash loses at most
 * the uncommitted batch, which the retried job redoes: nobody is messaged twice. When the audience is
 * exhausted and no recipient's message is QUEUED or PENDING any more, the campaign is COMPLETED and
 * campaign.completed is published; until then the job re-enqueues itself.
 */
export class RunCampaign {
  readonly #deps: RunCampaignDeps;
  constructor(deps: RunCampaignDeps) { this.#deps = deps; }

  async execute(job: { campaignId: string; organizationId: string }): Promise<Campaign | null> {
    const { storage } = this.#deps;
    let campaign = await this.#start(job);
    if (!campaign || campaign.status !== 'SENDING') return campaign;
    let batches = 0;
    while (!campaign.fanOutDone) {
      if (batches++ >= (this.#deps.maxBatchesPerRun ?? BATCHES_PER_RUN)) {
        // Keep each job run short (well inside the queue's expiry): the rest continues in a new job.
        await storage.jobs.enqueue(QUEUES.campaignRun, job);
        return campaign;
      }
      try {
        // Pricing is read before the transaction: a cold pricing cache reads through `storage`, which on
        // the embedded PGlite (one connection) would wait for this very transaction.
        const rules = await this.#deps.pricing.listActive();
        const next = await storage.transaction((tx) => this.#batch(tx, job, rules));
        if (!next) return storage.campaigns.findById(job.organizationId, job.campaignId);
        campaign = next;
      } catch (error) {
        if (isAppError(error) && error.code === 'WHATSAPP_TEMPLATE_NOT_APPROVED') return this.#fail(job, `${error.message}; recipients not reached yet were not messaged`);
        if (!isAppError(error) || error.code !== 'INSUFFICIENT_BALANCE') throw error;
        return this.#fail(job, 'The wallet ran out of balance during the fan-out; recipients not reached yet were not messaged');
      }
    }
    return this.#completeOrPoll(job);
  }

  /** SCHEDULED and due -> SENDING. */
  async #start(job: { campaignId: string; organizationId: string }): Promise<Campaign | null> {
    const now = this.#deps.clock.now();
    return this.#deps.storage.transaction(async (tx) => {
      const campaign = await tx.campaigns.lock(job.organizationId, job.campaignId);
      if (!campaign || campaign.status !== 'SCHEDULED') return campaign;
      if (campaign.scheduledAt && campaign.scheduledAt.getTime() > now.getTime() + 1_000) return campaign; // rescheduled meanwhile: a later job starts it
      const started = { ...campaign, status: 'SENDING' as const, startedAt: now, updatedAt: now };
      await tx.campaigns.update(started);
      return started;
    });
  }

  /** One fan-out batch; null when the campaign stopped being SENDING (paused or cancelled). */
  async #batch(tx: Repositories, job: { campaignId: string; organizationId: string }, rules: readonly PricingRule[]): Promise<Campaign | null> {
    const { clock, ids } = this.#deps;
    const campaign = await tx.campaigns.lock(job.organizationId, job.campaignId);
    if (!campaign || campaign.status !== 'SENDING') return null;
    if (campaign.fanOutDone) return campaign;
    const now = clock.now();
    const audience = await campaignAudience(tx, campaign);
    // The progress bar's total: counted once, when the fan-out starts (contacts added later may still be reached).
    if (campaign.progress.audienceTotal === null) campaign.progress = { ...campaign.progress, audienceTotal: await tx.contacts.count(campaign.organizationId, audience) };
    const contacts = await tx.contacts.page(campaign.organizationId, audience, campaign.cursor, this.#deps.batchSize ?? FAN_OUT_BATCH);
    if (contacts.length === 0) {
      const done = { ...campaign, fanOutDone: true, progress: { ...campaign.progress, sampledAt: null }, updatedAt: now };
      await tx.campaigns.update(done);
      return done;
    }
    const template = campaign.templateId ? await tx.templates.findById(campaign.organizationId, campaign.templateId) : null;
    if (!template) throw new AppError('VALIDATION_ERROR', 'The campaign\'s template no longer exists');
    const organizationLocale = (template.variants ?? []).length > 0 ? (await tx.organizations.findById(campaign.organizationId))?.defaultLanguage ?? null : null;
    const prepared: PreparedMessage[] = [];
    const owners: string[] = [];
    const skipped: Array<{ contactId: string; reason: string }> = [];
    const links = await linkTrackingOption(this.#deps, campaign.organizationId, tx.linkSettings);
    for (const contact of contacts) {
      const result = prepareForContact(campaign, template, contact, rules, optOutOption(this.#deps, campaign.organizationId), organizationLocale, links, this.#deps.networks);
      if (result.ok) { prepared.push(result.prepared); owners.push(contact.id); } else skipped.push({ contactId: contact.id, reason: result.reason });
    }
    const accepted = prepared.length === 0 ? { messages: [] } : await acceptMessages(
      { ...this.#deps, storage: withinTransaction(tx) }, // every send setting (timing, own accounts, alert threshold), none listed by hand
      { organizationId: campaign.organizationId, userId: campaign.createdByUserId, apiKeyId: null, isSandbox: false },
      prepared, { async: true, idempotency: null, batchId: ids.next() });
    await tx.campaigns.addRecipients(campaign.organizationId, campaign.id, [
      ...accepted.messages.map((m, i) => ({ contactId: owners[i]!, messageId: m.id, skipReason: null })),
      ...skipped.map((s) => ({ contactId: s.contactId, messageId: null, skipReason: s.reason })),
    ]);
    // Progress moves with the cursor, in the same transaction: a rolled-back batch is not counted.
    const next = { ...campaign, cursor: contacts[contacts.length - 1]!.id, progress: afterBatch(campaign.progress, contacts.length, clock.now()), updatedAt: now };
    await tx.campaigns.update(next);
    return next;
  }

  async #completeOrPoll(job: { campaignId: string; organizationId: string }): Promise<Campaign | null> {
    const { storage, clock, ids } = this.#deps;
    return storage.transaction(async (tx) => {
      const campaign = await tx.campaigns.lock(job.organizationId, job.campaignId);
      if (!campaign || campaign.status !== 'SENDING' || !campaign.fanOutDone) return campaign;
      const counts = await tx.campaigns.counts(job.organizationId, job.campaignId);
      if (counts.queued + counts.pending + counts.scheduled > 0) {
        await tx.campaigns.update({ ...campaign, progress: afterPoll(campaign.progress, settledOf(counts), clock.now()) }); // the delivery phase's rate
        // Messages held for a send window wait hours: check back every minute, not every few seconds.
        const poll = counts.queued + counts.pending > 0 ? this.#deps.completionPollSeconds ?? COMPLETION_POLL_SECONDS : SCHEDULED_POLL_SECONDS;
        await tx.jobs.enqueue(QUEUES.campaignRun, job, { startAfterSeconds: poll });
        return campaign;
      }
      const now = clock.now();
      const completed = { ...campaign, status: 'COMPLETED' as const, completedAt: now, updatedAt: now };
      await tx.campaigns.update(completed);
      await publishOutboundEvent(tx, {
        id: ids.next(), organizationId: campaign.organizationId, kind: 'campaign.completed', occurredAt: now,
        data: { campaignId: campaign.id, name: campaign.name, channel: campaign.channel, counts, completedAt: now.toISOString() },
      });
      return completed;
    });
  }

  async #fail(job: { campaignId: string; organizationId: string }, reason: string): Promise<Campaign | null> {
    const now = this.#deps.clock.now();
    return this.#deps.storage.transaction(async (tx) => {
      const campaign = await tx.campaigns.lock(job.organizationId, job.campaignId);
      if (!campaign || campaign.status !== 'SENDING') return campaign;
      const failed = { ...campaign, status: 'FAILED' as const, failureReason: reason, updatedAt: now };
      await tx.campaigns.update(failed);
      return failed;
    });
  }
}
