import { AppError } from '../../errors.ts';
import { crossedBelowThreshold } from '../../domain/low-balance.ts';
import type { Message } from '../../domain/message.ts';
import type { Organization } from '../../domain/organization.ts';
import type { Clock } from '../../ports/clock.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import { QUEUES } from '../../ports/job-queue.ts';
import type { Repositories, Storage } from '../../ports/storage.ts';
import type { PreparedMessage } from './message-preparation.ts';
import type { FraudLimits, SendContext } from './send-context.ts';

const HOUR_MS = 3_600_000;
const IDEMPOTENCY_TTL_MS = 24 * HOUR_MS;
/** A sync send also enqueues a delayed job: if the process dies mid-delivery, the worker finishes it. */
export const SYNC_SAFETY_NET_SECONDS = 120;

export interface AcceptDeps {
  storage: Storage;
  clock: Clock;
  ids: IdGenerator;
  fraud: FraudLimits;
  /** Pesewas; a debit crossing under it enqueues one owner alert (QUEUES.lowBalanceAlert). 0 or absent: off. */
  lowBalanceThreshold?: number | undefined;
}

export interface AcceptOptions {
  async: boolean;
  idempotency: { key: string; requestHash: string } | null;
  /** Ledger reference of the debit (unique per organization): the batch id. */
  batchId: string;
}

export interface Accepted {
  messages: Message[];
  /** True when an idempotency key replayed an earlier request: nothing new was sent or charged. */
  replayed: boolean;
}

/**
 * The transactional heart of every send: claims the idempotency key, screens each message (tenant
 * paused, premium-rate numbers, suppression, recipient velocity, new-tenant cap), debits the wallet
 * once for everything billable, records every message (REJECTED ones with their errorCode and cost 0)
 * and enqueues delivery jobs, all in one transaction. For live sends the wallet row is locked first,
 * which also makes the velocity counts exact for concurrent requests of one organization.
 */
export async function acceptMessages(deps: AcceptDeps, ctx: SendContext, prepared: readonly PreparedMessage[], options: AcceptOptions): Promise<Accepted> {
  return deps.storage.transaction((tx) => acceptMessagesIn(tx, deps, ctx, prepared, options));
}

/**
 * `acceptMessages` inside a transaction the caller already holds, for use cases that record more
 * rows with the messages (event triggers record the trigger and its step in the same transaction).
 */
export async function acceptMessagesIn(tx: Repositories, deps: Omit<AcceptDeps, 'storage'>, ctx: SendContext, prepared: readonly PreparedMessage[],
  options: AcceptOptions): Promise<Accepted> {
  {
    const now = deps.clock.now();
    if (options.idempotency) {
      const { key, requestHash } = options.idempotency;
      const claim = await tx.idempotency.claim(ctx.organizationId, key, requestHash, now, new Date(now.getTime() + IDEMPOTENCY_TTL_MS));
      if (!claim.claimed) {
        if (claim.requestHash !== requestHash) {
          throw new AppError('IDEMPOTENCY_KEY_REUSED', 'This idempotencyKey was used for a different request in the last 24 hours', { idempotencyKey: key });
        }
        return { messages: await tx.messages.findManyByIds(ctx.organizationId, claim.messageIds), replayed: true };
      }
    }
    const organization = await tx.organizations.findById(ctx.organizationId);
    if (!organization) throw new AppError('NOT_FOUND', 'Organization not found');
    const live = !ctx.isSandbox;
    if (live) await tx.wallets.update(ctx.organizationId, () => null, now); // row lock for the rest of the transaction

    const verdicts = await screen(tx, organization, prepared, deps.fraud, now);
    const messages = prepared.map((p, i) => toMessage(deps, ctx, p, verdicts[i] ?? null, now, live));
    const total = messages.reduce((sum, m) => sum + m.cost, 0);
    if (total > 0) {
      const { entry } = await tx.wallets.update(ctx.organizationId, () => ({
        amount: -total, kind: 'DEBIT', reference: options.batchId,
        description: messages.length === 1 ? `${messages[0]!.channel} message ${messages[0]!.internalMessageId}` : `${messages.length} messages (batch ${options.batchId})`,
      }), now);
      if (entry && crossedBelowThreshold(entry, deps.lowBalanceThreshold ?? 0)) {
        await tx.jobs.enqueue(QUEUES.lowBalanceAlert, { organizationId: ctx.organizationId, balanceAfter: entry.balanceAfter });
      }
    }
    await tx.messages.insertMany(messages);
    const deliverable = messages.filter((m) => m.status === 'QUEUED');
    await tx.jobs.enqueueMany(QUEUES.notificationSend, deliverable.map((m) => ({
      data: { messageId: m.id }, options: options.async ? {} : { startAfterSeconds: SYNC_SAFETY_NET_SECONDS },
    })));
    if (options.idempotency) await tx.idempotency.complete(ctx.organizationId, options.idempotency.key, messages.map((m) => m.id));
    return { messages, replayed: false };
  }
}

interface Verdict { code: string; message: string }

async function screen(tx: Repositories, org: Organization, prepared: readonly PreparedMessage[], limits: FraudLimits, now: Date): Promise<Array<Verdict | null>> {
  if (org.paused) return prepared.map(() => ({ code: 'FRAUD_TENANT_PAUSED', message: 'The organization is paused' }));
  const since = new Date(now.getTime() - HOUR_MS);
  const perRecipient = await tx.messages.countSinceByRecipient(org.id, since, prepared.map((p) => p.recipient));
  const young = now.getTime() - org.createdAt.getTime() < limits.newTenantDays * 24 * HOUR_MS;
  let organizationCount = young ? await tx.messages.countSince(org.id, since) : 0;
  const suppressed = await tx.suppressions.findMatches(org.id, prepared.map((p) => ({ channel: p.channel, recipient: p.recipient })));
  const verdicts: Array<Verdict | null> = [];
  for (const [i, p] of prepared.entries()) {
    const verdict = screenOne(p, Boolean(suppressed[i]), perRecipient, young ? organizationCount : null, limits);
    if (!verdict) {
      perRecipient.set(p.recipient, (perRecipient.get(p.recipient) ?? 0) + 1);
      organizationCount += 1;
    }
    verdicts.push(verdict);
  }
  return verdicts;
}

function screenOne(p: PreparedMessage, suppressed: boolean, perRecipient: Map<string, number>,
  organizationCount: number | null, limits: FraudLimits): Verdict | null {
  if (p.premiumRate) {
    return { code: 'FRAUD_PREMIUM_RATE', message: p.premiumRate === 'premium-rate' ? 'Premium-rate numbers are blocked' : 'International network numbers are blocked' };
  }
  if (suppressed) {
    return { code: 'RECIPIENT_SUPPRESSED', message: 'The recipient is on the suppression list' };
  }
  if ((perRecipient.get(p.recipient) ?? 0) >= limits.recipientPerHour) {
    return { code: 'FRAUD_RECIPIENT_VELOCITY', message: `More than ${limits.recipientPerHour} messages to this recipient within an hour` };
  }
  if (organizationCount !== null && organizationCount >= limits.newTenantPerHour) {
    return { code: 'FRAUD_NEW_TENANT_CAP', message: `New organizations may send ${limits.newTenantPerHour} messages per hour` };
  }
  return null;
}

function toMessage(deps: Omit<AcceptDeps, 'storage'>, ctx: SendContext, p: PreparedMessage, verdict: Verdict | null, now: Date, live: boolean): Message {
  const id = deps.ids.next();
  return {
    id, organizationId: ctx.organizationId, internalMessageId: `msg_${id.replace(/-/g, '')}`, channel: p.channel,
    recipient: p.recipient, country: p.country, subject: p.subject, body: p.body, templateId: p.templateId,
    status: verdict ? 'REJECTED' : 'QUEUED', errorCode: verdict?.code ?? null, errorMessage: verdict?.message ?? null,
    cost: verdict || !live ? 0 : p.price, price: p.price, segments: p.segments, encoding: p.encoding, isSandbox: ctx.isSandbox,
    apiKeyId: ctx.apiKeyId, userId: ctx.userId, senderId: p.senderId, provider: null, providerMessageId: null, attempts: 0,
    leaseUntil: null, createdAt: now, updatedAt: now, sentAt: null, deliveredAt: null, failedAt: null,
  };
}
