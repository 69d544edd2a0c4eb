import { laneOf } from '../../domain/delivery-lane.ts';
import type { Message } from '../../domain/message.ts';
import type { Clock } from '../../ports/clock.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import { QUEUES } from '../../ports/job-queue.ts';
import type { Repositories, Storage } from '../../ports/storage.ts';
import type { WebhookSubscriptions } from '../../ports/webhook-subscriptions.ts';
import { withdrawScheduled } from './withdraw-scheduled.ts';

/** Messages released per transaction. */
export const RELEASE_BATCH = 2_000;
/**
 * Batches released at once by one run, each in its own transaction on its own connection (skip locked
 * keeps them disjoint): the release is bound by round trips and index writes, not one core, and two
 * loops release about twice as fast as one (docs/performance.md, bench:schedule).
 */
export const RELEASE_CONCURRENCY = 2;
/** Campaigns started per transaction. */
const CAMPAIGN_BATCH = 50;

/** A message the release-time screen refuses, and why (becomes its errorCode / errorMessage). */
export interface ReleaseRefusal {
  messageId: string;
  code: string;
  message: string;
}

/**
 * The hook for checks that must hold at release rather than at acceptance (consent: a recipient who
 * opted out since the message was scheduled). Given the due messages of one batch, inside the batch's
 * transaction (read through `tx` only), answers the ones to refuse; they become REJECTED and refunded.
 */
export type ReleaseScreen = (tx: Repositories, messages: readonly Message[]) => Promise<ReleaseRefusal[]>;

export interface ReleaseScheduledDeps {
  storage: Storage;
  clock: Clock;
  ids: IdGenerator;
  webhooks?: WebhookSubscriptions | undefined;
  screen?: ReleaseScreen | undefined;
  batchSize?: number | undefined;
  concurrency?: number | undefined;
}

export interface ReleaseResult {
  released: number;
  rejected: number;
  campaignsStarted: number;
}

/**
 * The scheduler (docs/scheduling.md), run by every worker process about once a second. For each
 * batch, in one transaction: lock the due SCHEDULED messages (`scheduledAt` <= now) skipping rows
 * another worker holds, screen them, move the others to QUEUED and enqueue their delivery jobs; the
 * jobs commit with the status change, so a crash at any point leaves each message either SCHEDULED
 * (the next run takes it) or QUEUED with its job: never lost, never released twice. While full
 * batches come back, RELEASE_CONCURRENCY loops release them side by side. The refused ones are withdrawn right after, each in its own transaction (REJECTED,
 * refunded; wallet row first, as every money path locks). Then due SCHEDULED campaigns are started the
 * same way: SENDING and a campaign-run job in one transaction, each campaign once. One query when
 * nothing is due.
 */
export class ReleaseScheduledMessages {
  readonly #deps: ReleaseScheduledDeps;
  constructor(deps: ReleaseScheduledDeps) { this.#deps = deps; }

  async execute(): Promise<ReleaseResult> {
    const size = this.#deps.batchSize ?? RELEASE_BATCH;
    const result: ReleaseResult = { released: 0, rejected: 0, campaignsStarted: 0 };
    const loop = async () => {
      for (;;) {
        const batch = await this.#deps.storage.transaction((tx) => this.#releaseBatch(tx, size));
        result.released += batch.released;
        for (const refused of batch.refused) if (await this.#reject(refused.message, refused.refusal)) result.rejected += 1;
        if (batch.due < size) return;
      }
    };
    const first = await this.#deps.storage.transaction((tx) => this.#releaseBatch(tx, size));
    result.released += first.released;
    for (const refused of first.refused) if (await this.#reject(refused.message, refused.refusal)) result.rejected += 1;
    // Only a full first batch (a backlog) is worth more connections; an idle tick stays one query.
    if (first.due === size) await Promise.all(Array.from({ length: Math.max(1, this.#deps.concurrency ?? RELEASE_CONCURRENCY) }, loop));
    result.campaignsStarted = await this.#startCampaigns();
    return result;
  }

  async #releaseBatch(tx: Repositories, size: number): Promise<{ due: number; released: number; refused: Array<{ message: Message; refusal: ReleaseRefusal }> }> {
    const now = this.#deps.clock.now();
    const due = await tx.messages.lockDueScheduled(now, size);
    if (due.length === 0) return { due: 0, released: 0, refused: [] };
    const refusals = this.#deps.screen ? await this.#deps.screen(tx, due) : [];
    const byId = new Map(refusals.map((r) => [r.messageId, r]));
    const refused = due.flatMap((message) => (byId.has(message.id) ? [{ message, refusal: byId.get(message.id)! }] : []));
    const released = await tx.messages.releaseScheduled(due.filter((m) => !byId.has(m.id)).map((m) => m.id), now);
    const byMessage = new Map(due.map((m) => [m.id, m]));
    await tx.jobs.enqueueMany(QUEUES.notificationSend, released.map((messageId) => {
      const message = byMessage.get(messageId);
      return { data: { messageId }, options: message ? { lane: laneOf(message.category), tenant: message.organizationId } : { lane: 'TRANSACTIONAL' as const } };
    }));
    return { due: due.length, released: released.length, refused };
  }

  async #reject(message: Message, refusal: ReleaseRefusal): Promise<boolean> {
    const { storage, clock, ids, webhooks } = this.#deps;
    const publish = webhooks ? await webhooks.hasSubscribers(message.organizationId, 'message.status.updated') : false;
    const done = await storage.transaction((tx) => withdrawScheduled(tx, ids, message, {
      status: 'REJECTED', errorCode: refusal.code, errorMessage: refusal.message, source: 'scheduler', reason: `refused at release (${refusal.code})`, publish,
    }, clock.now()));
    return done !== null;
  }

  async #startCampaigns(): Promise<number> {
    const { storage, clock } = this.#deps;
    return storage.transaction(async (tx) => {
      const now = clock.now();
      const due = await tx.campaigns.lockDueScheduled(now, CAMPAIGN_BATCH);
      for (const campaign of due) {
        await tx.campaigns.update({ ...campaign, status: 'SENDING', startedAt: now, updatedAt: now });
        await tx.jobs.enqueue(QUEUES.campaignRun, { campaignId: campaign.id, organizationId: campaign.organizationId });
      }
      return due.length;
    });
  }
}
