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

/** One send request (a single send or a bulk request) of a group-committed batch. */
export interface AcceptRequest {
  /** Who sends; every request of one batch has the same organization and sandbox flag. */
  ctx: SendContext;
  prepared: readonly PreparedMessage[];
  async: boolean;
  idempotency: { key: string; requestHash: string } | null;
}

/** What one request of a batch came to: its messages, or its own error (the batch went on without it). */
export type AcceptOutcome = { accepted: Accepted; error?: undefined } | { error: AppError; accepted?: undefined };

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
  const [outcome] = await acceptRequestsIn(tx, deps, [{ ctx, prepared, async: options.async, idempotency: options.idempotency }], options.batchId);
  if (!outcome || outcome.error) throw outcome?.error ?? new Error('no outcome');
  return outcome.accepted;
}

/**
 * Several requests of one organization (and sandbox flag) in one transaction: the group commit of
 * AcceptCoalescer. Their idempotency keys are claimed in one statement; a key already used answers its
 * request with the first answer (replayed, nothing charged) or IDEMPOTENCY_KEY_REUSED, without failing
 * the others. The rest are screened in order, debited in one ledger entry (reference `batchId`),
 * recorded and enqueued together, and their keys completed in one statement. Anything that fails the
 * whole batch (not enough balance for all of it, a database error) throws.
 */
export async function acceptRequestsIn(tx: Repositories, deps: Omit<AcceptDeps, 'storage'>, requests: readonly AcceptRequest[], batchId: string): Promise<AcceptOutcome[]> {
  const first = requests[0];
  if (!first) return [];
  const { organizationId, isSandbox } = first.ctx;
  if (requests.some((r) => r.ctx.organizationId !== organizationId || r.ctx.isSandbox !== isSandbox)) {
    throw new RangeError('acceptRequestsIn: one organization and sandbox flag per batch');
  }
  const now = deps.clock.now();
  const outcomes: Array<AcceptOutcome | null> = await claimKeys(tx, requests, now);
  const fresh = requests.flatMap((r, i) => (outcomes[i] ? [] : [{ r, i }]));
  if (fresh.length === 0) return outcomes as AcceptOutcome[];

  const organization = await tx.organizations.findById(organizationId);
  if (!organization) throw new AppError('NOT_FOUND', 'Organization not found');
  const live = !isSandbox;
  if (live) await tx.wallets.update(organizationId, () => null, now); // row lock for the rest of the transaction

  const verdicts = await screen(tx, organization, fresh.flatMap(({ r }) => r.prepared), deps.fraud, now);
  let v = 0;
  const perRequest = fresh.map(({ r }) => r.prepared.map((p) => toMessage(deps, r.ctx, p, verdicts[v++] ?? null, now, live)));
  const messages = perRequest.flat();
  const total = messages.reduce((sum, m) => sum + m.cost, 0);
  if (total > 0) {
    const { entry } = await tx.wallets.update(organizationId, () => ({
      amount: -total, kind: 'DEBIT', reference: batchId,
      description: messages.length === 1 ? `${messages[0]!.channel} message ${messages[0]!.internalMessageId}` : `${messages.length} messages (batch ${batchId})`,
    }), now);
    if (entry && crossedBelowThreshold(entry, deps.lowBalanceThreshold ?? 0)) {
      await tx.jobs.enqueue(QUEUES.lowBalanceAlert, { organizationId, balanceAfter: entry.balanceAfter });
    }
  }
  await tx.messages.insertMany(messages);
  await tx.jobs.enqueueMany(QUEUES.notificationSend, fresh.flatMap(({ r }, k) => perRequest[k]!.filter((m) => m.status === 'QUEUED').map((m) => ({
    data: { messageId: m.id }, options: r.async ? {} : { startAfterSeconds: SYNC_SAFETY_NET_SECONDS },
  }))));
  const completions = fresh.flatMap(({ r }, k) => (r.idempotency ? [{ key: r.idempotency.key, messageIds: perRequest[k]!.map((m) => m.id) }] : []));
  if (completions.length > 0) await tx.idempotency.completeMany(organizationId, completions);
  fresh.forEach(({ i }, k) => { outcomes[i] = { accepted: { messages: perRequest[k]!, replayed: false } }; });
  return outcomes as AcceptOutcome[];
}

/**
 * Claims the keys of the keyed requests in one statement. A request whose key an earlier request holds
 * gets its outcome here: the earlier request's messages (replayed) or IDEMPOTENCY_KEY_REUSED; null for
 * the requests that go on.
 */
async function claimKeys(tx: Repositories, requests: readonly AcceptRequest[], now: Date): Promise<Array<AcceptOutcome | null>> {
  const outcomes: Array<AcceptOutcome | null> = requests.map(() => null);
  const keyed = requests.flatMap((r, i) => (r.idempotency ? [{ i, claim: r.idempotency }] : []));
  if (keyed.length === 0) return outcomes;
  const { organizationId } = requests[0]!.ctx;
  const claims = await tx.idempotency.claimMany(organizationId, keyed.map((k) => k.claim), now, new Date(now.getTime() + IDEMPOTENCY_TTL_MS));
  for (const [n, { i, claim }] of keyed.entries()) {
    const answer = claims[n];
    if (!answer || answer.claimed) continue;
    outcomes[i] = answer.requestHash !== claim.requestHash
      ? { error: new AppError('IDEMPOTENCY_KEY_REUSED', 'This idempotencyKey was used for a different request in the last 24 hours', { idempotencyKey: claim.key }) }
      : { accepted: { messages: await tx.messages.findManyByIds(organizationId, answer.messageIds), replayed: true } };
  }
  return outcomes;
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
