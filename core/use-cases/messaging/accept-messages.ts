import { AppError } from '../../errors.ts';
import { crossedBelowThreshold } from '../../domain/low-balance.ts';
import { laneOf } from '../../domain/delivery-lane.ts';
import type { Message } from '../../domain/message.ts';
import { pesewasToGhs } from '../../domain/money.ts';
import type { Organization } from '../../domain/organization.ts';
import type { Wallet } from '../../domain/wallet.ts';
import type { Clock } from '../../ports/clock.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import { QUEUES } from '../../ports/job-queue.ts';
import type { Repositories, Storage } from '../../ports/storage.ts';
import type { TraceCapture, TraceCarrier } from '../../ports/trace-capture.ts';
import type { ProviderDirectory } from '../../ports/channel-provider.ts';
import type { PreparedMessage } from './message-preparation.ts';
import type { FraudLimits, SendContext } from './send-context.ts';
import { screenCandidates, type Verdict } from './send-screening.ts';
import { resolveSenderIds } from '../senders/sender-id-check.ts';
import { timeMessages, type SendTiming } from './send-timing.ts';
import { routePrice } from './own-account-price.ts';
import { applyWhatsappWindows } from './whatsapp-window-check.ts';

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
  /**
   * Organizations' own vendor accounts (docs/providers.md): a live message on a route the organization's
   * own accounts serve is priced at `fee` (pesewas per message) instead of the platform price.
   */
  ownAccounts?: OwnAccountPricing | undefined;
  /** Send windows and quiet hours (docs/consent.md): messages outside them are SCHEDULED for their next opening. */
  timing?: SendTiming | undefined;
  /** Tracing on: each request's trace, carried in its messages' delivery jobs (docs/observability.md). */
  traces?: TraceCapture | undefined;
  /** Months a tracked link resolves (the platform's message retention, docs/links.md); 0 or absent: forever. */
  linkRetentionMonths?: number | undefined;
}

export interface OwnAccountPricing {
  routes: Required<Pick<ProviderDirectory, 'ownsRoute'>>;
  fee: number;
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
  /** Who sends: the organization (from the authenticated principal), the key or user, sandbox or live. */
  ctx: SendContext;
  prepared: readonly PreparedMessage[];
  async: boolean;
  idempotency: { key: string; requestHash: string } | null;
  /**
   * More rows written with an accepted request, in the same transaction (a verification with its passcode
   * message): `row` makes the request's row from its messages, and `write` writes the rows of every
   * accepted request of the batch sharing the same `kind` at once (multi-row). Not used for a replayed or
   * refused request; an error fails the batch (each request is then accepted alone).
   */
  alsoWrite?: AlsoWrite;
  /** Not held to WhatsApp's 24-hour window (whatsapp-window-check.ts): Verify passcodes. */
  whatsappWindowExempt?: boolean;
  /** The request's trace (AcceptDeps.traces), captured where the request was made; else captured in the transaction. */
  trace?: TraceCarrier | null;
}

export interface AlsoWrite {
  kind: string;
  row: (messages: readonly Message[]) => unknown;
  write: (tx: Repositories, rows: unknown[]) => Promise<void>;
}

/**
 * What one request of a batch came to: its messages; its own error (the batch went on without it); or
 * `retryAlone` when its organization's balance did not cover all of that organization's requests in
 * the batch (accepted alone, each gets its own answer).
 */
export type AcceptOutcome =
  | { accepted: Accepted; error?: undefined; retryAlone?: undefined }
  | { error: AppError; accepted?: undefined; retryAlone?: undefined }
  | { retryAlone: true; accepted?: undefined; error?: undefined };

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
  if (!outcome?.accepted) throw outcome?.error ?? new Error('no outcome for a lone request');
  return outcome.accepted;
}

/**
 * Several requests, of one or several organizations, in one transaction: the group commit of
 * AcceptCoalescer (docs/adr/0021-group-commit-for-every-send.md). In statements, for the whole batch:
 * claim the idempotency keys; read the organizations; lock the live ones' wallets (in id order); screen
 * every message; debit each organization once (one ledger entry each, reference `batchId`); insert the
 * messages; enqueue their jobs. A used key answers its request with the first answer (replayed, nothing
 * charged) or IDEMPOTENCY_KEY_REUSED; an organization whose balance does not cover its part is left out
 * (its keys released, nothing written for it); neither fails the others. Only a database error throws.
 */
export async function acceptRequestsIn(tx: Repositories, deps: Omit<AcceptDeps, 'storage'>, requests: readonly AcceptRequest[], batchId: string): Promise<AcceptOutcome[]> {
  const now = deps.clock.now();
  const ids = requests.map((r) => r.prepared.map(() => deps.ids.next()));
  const outcomes = await claimKeys(tx, requests, ids, now);
  const orgIds = [...new Set(requests.flatMap((r, i) => (outcomes[i] ? [] : [r.ctx.organizationId])))];
  if (orgIds.length === 0) return outcomes as AcceptOutcome[];

  const organizations = new Map((await tx.organizations.findManyByIds(orgIds)).map((o) => [o.id, o]));
  const liveOrgIds = [...new Set(requests.flatMap((r, i) => (!outcomes[i] && !r.ctx.isSandbox ? [r.ctx.organizationId] : [])))];
  // Row locks for the rest of the transaction: the balance checks and the velocity counts are exact.
  const wallets = new Map<string, Wallet>((await tx.wallets.lockMany(liveOrgIds)).map((w) => [w.organizationId, w]));
  requests.forEach((r, i) => {
    if (outcomes[i]) return;
    if (!organizations.has(r.ctx.organizationId)) outcomes[i] = { error: new AppError('NOT_FOUND', 'Organization not found') };
    else if (!r.ctx.isSandbox && !wallets.has(r.ctx.organizationId)) outcomes[i] = { error: new AppError('NOT_FOUND', 'wallet not found') };
  });

  const named = await senderIdsOf(tx, requests, outcomes, organizations);
  const windows = await applyWhatsappWindows(tx, requests, outcomes, now);

  const going = requests.flatMap((r, i) => (outcomes[i] ? [] : [i]));
  const verdicts = await screenCandidates(tx, going.flatMap((i) => requests[i]!.prepared.map((prepared) => ({ organization: organizations.get(requests[i]!.ctx.organizationId)!, prepared }))), deps.fraud, now);
  const times = await timeMessages(tx, deps.timing ?? {}, going.flatMap((i) => requests[i]!.prepared.map((prepared) => ({
    organization: organizations.get(requests[i]!.ctx.organizationId)!, prepared, refused: false }))).map((c, n) => ({ ...c, refused: verdicts[n] !== null })), now);
  let v = 0;
  const built = new Map(going.map((i) => [i, requests[i]!.prepared.map((p, k) => toMessage(ids[i]![k]!, requests[i]!.ctx,
    { ...p, sendAt: times[v] ?? null, senderId: named.senders.get(i)?.[k] ?? p.senderId, price: priceOf(deps, requests[i]!.ctx, p),
      metaTemplate: windows.asText.has(`${i}:${k}`) ? null : p.metaTemplate ?? null }, verdicts[v++] ?? null, now))]));

  const charged = await debitOrganizations(tx, deps, requests, going, built, wallets, batchId, now);
  const released = [...named.refused, ...windows.refused].flatMap((i) => (requests[i]!.idempotency ? [{ organizationId: requests[i]!.ctx.organizationId, key: requests[i]!.idempotency!.key }] : []));
  for (const i of going) {
    const r = requests[i]!;
    if (charged.refused.has(r.ctx.organizationId)) {
      outcomes[i] = charged.refused.get(r.ctx.organizationId)!;
      if (r.idempotency) released.push({ organizationId: r.ctx.organizationId, key: r.idempotency.key });
    } else {
      outcomes[i] = { accepted: { messages: built.get(i)!, replayed: false } };
    }
  }
  if (released.length > 0) await tx.idempotency.release(released);
  const written = going.filter((i) => outcomes[i]?.accepted);
  await tx.messages.insertMany(written.flatMap((i) => built.get(i)!));
  const sent = written.map((i) => ({ organizationId: requests[i]!.ctx.organizationId, prepared: requests[i]!.prepared, messages: built.get(i)! }));
  await recordOptOutLinks(tx, sent, now);
  await recordTrackedLinks(tx, sent, now, deps.linkRetentionMonths ?? 0);
  await tx.jobs.enqueueMany(QUEUES.notificationSend, written.flatMap((i) => {
    // Tracing on: the request's own trace (null: none), never the group leader's active one.
    const trace = deps.traces ? requests[i]!.trace !== undefined ? requests[i]!.trace : deps.traces.current() : undefined;
    return built.get(i)!.filter((m) => m.status === 'QUEUED').map((m) => ({
      data: trace === undefined ? { messageId: m.id } : { messageId: m.id, trace },
      options: { lane: laneOf(m.category), tenant: m.organizationId, ...(requests[i]!.async ? {} : { startAfterSeconds: SYNC_SAFETY_NET_SECONDS }) },
    }));
  }));
  const extra = new Map<string, { write: AlsoWrite['write']; rows: unknown[] }>();
  for (const i of written) {
    const also = requests[i]!.alsoWrite;
    if (!also) continue;
    const group = extra.get(also.kind) ?? { write: also.write, rows: [] };
    group.rows.push(also.row(built.get(i)!));
    extra.set(also.kind, group);
  }
  for (const { write, rows } of extra.values()) await write(tx, rows);
  return outcomes as AcceptOutcome[];
}

/**
 * The sender each SMS goes out under (docs/sender-ids.md): the one it names, checked against the
 * organization's registered sender IDs in one lookup for the batch and spelled as registered, else the
 * organization's default sender. A request naming one it may not use gets SENDER_ID_NOT_APPROVED
 * (`details.index`: which message) and is left out, its key released; the others go on.
 */
async function senderIdsOf(tx: Repositories, requests: readonly AcceptRequest[], outcomes: Array<AcceptOutcome | null>,
  organizations: ReadonlyMap<string, Organization>): Promise<{ senders: Map<number, Array<string | null>>; refused: number[] }> {
  const senders = new Map<number, Array<string | null>>();
  const uses: Array<{ i: number; k: number; organizationId: string; name: string; sandbox: boolean }> = [];
  requests.forEach((r, i) => {
    if (outcomes[i]) return;
    const fallback = organizations.get(r.ctx.organizationId)?.defaultSenderId ?? null;
    senders.set(i, r.prepared.map((p, k) => {
      if (p.channel !== 'SMS') return p.senderId;
      if (p.senderId) uses.push({ i, k, organizationId: r.ctx.organizationId, name: p.senderId, sandbox: r.ctx.isSandbox });
      return p.senderId ?? fallback;
    }));
  });
  const refused: number[] = [];
  for (const [n, answer] of (await resolveSenderIds(tx, uses)).entries()) {
    const { i, k } = uses[n]!;
    if ('error' in answer) {
      if (!outcomes[i]) refused.push(i);
      outcomes[i] ??= { error: new AppError(answer.error.code, answer.error.message, { ...answer.error.details, index: k }) };
    } else {
      senders.get(i)![k] = answer.name;
    }
  }
  return { senders, refused };
}

/**
 * Claims the keys of the keyed requests in one statement, recording the message ids each will answer
 * with. A request whose key an earlier request holds gets its outcome here: the earlier request's
 * messages (replayed) or IDEMPOTENCY_KEY_REUSED; null for the requests that go on.
 */
async function claimKeys(tx: Repositories, requests: readonly AcceptRequest[], ids: readonly string[][], now: Date): Promise<Array<AcceptOutcome | null>> {
  const outcomes: Array<AcceptOutcome | null> = requests.map(() => null);
  const keyed = requests.flatMap((r, i) => (r.idempotency ? [{ i, organizationId: r.ctx.organizationId, ...r.idempotency }] : []));
  if (keyed.length === 0) return outcomes;
  const claims = await tx.idempotency.claimMany(keyed.map((k) => ({ organizationId: k.organizationId, key: k.key, requestHash: k.requestHash, messageIds: ids[k.i]! })),
    now, new Date(now.getTime() + IDEMPOTENCY_TTL_MS));
  for (const [n, k] of keyed.entries()) {
    const answer = claims[n];
    if (!answer || answer.claimed) continue;
    outcomes[k.i] = answer.requestHash !== k.requestHash
      ? { error: new AppError('IDEMPOTENCY_KEY_REUSED', 'This idempotencyKey was used for a different request in the last 24 hours', { idempotencyKey: k.key }) }
      : { accepted: { messages: await tx.messages.findManyByIds(k.organizationId, answer.messageIds), replayed: true } };
  }
  return outcomes;
}

/**
 * One debit per organization with something to charge, in one statement. An organization whose locked
 * balance does not cover its part is refused: INSUFFICIENT_BALANCE when it had one request in the batch
 * (the answer it would get alone), otherwise each of its requests is retried alone.
 */
async function debitOrganizations(tx: Repositories, deps: Omit<AcceptDeps, 'storage'>, requests: readonly AcceptRequest[], going: readonly number[],
  built: ReadonlyMap<number, Message[]>, wallets: ReadonlyMap<string, Wallet>, batchId: string, now: Date): Promise<{ refused: Map<string, AcceptOutcome> }> {
  const byOrg = new Map<string, { total: number; requests: number; messages: Message[] }>();
  for (const i of going) {
    const org = requests[i]!.ctx.organizationId;
    const part = byOrg.get(org) ?? { total: 0, requests: 0, messages: [] };
    for (const m of built.get(i)!) { part.total += m.cost; part.messages.push(m); }
    part.requests += 1;
    byOrg.set(org, part);
  }
  const refused = new Map<string, AcceptOutcome>();
  const refuse = (organizationId: string, part: { total: number; requests: number }) => {
    const balance = wallets.get(organizationId)?.balance ?? 0;
    refused.set(organizationId, part.requests > 1 ? { retryAlone: true } : { error: new AppError('INSUFFICIENT_BALANCE', 'Insufficient wallet balance',
      { balance: pesewasToGhs(balance), required: pesewasToGhs(part.total) }) });
  };
  const debits = [...byOrg].filter(([, part]) => part.total > 0).flatMap(([organizationId, part]) => {
    if ((wallets.get(organizationId)?.balance ?? 0) >= part.total) return [{ organizationId, part }];
    refuse(organizationId, part);
    return [];
  });
  const entries = await tx.wallets.applyMany(debits.map(({ organizationId, part }) => ({ organizationId, change: {
    amount: -part.total, kind: 'DEBIT' as const, reference: batchId,
    description: part.messages.length === 1 ? `${part.messages[0]!.channel} message ${part.messages[0]!.internalMessageId}` : `${part.messages.length} messages (batch ${batchId})`,
  } })), now);
  for (const [n, entry] of entries.entries()) {
    const { organizationId, part } = debits[n]!;
    if (!entry) { refuse(organizationId, part); continue; } // not expected under the lock
    if (crossedBelowThreshold(entry, deps.lowBalanceThreshold ?? 0)) await tx.jobs.enqueue(QUEUES.lowBalanceAlert, { organizationId, balanceAfter: entry.balanceAfter });
  }
  return { refused };
}

/** The platform price, or the own-account fee on a route the organization's own vendor accounts serve. */
function priceOf(deps: Omit<AcceptDeps, 'storage'>, ctx: SendContext, p: PreparedMessage): number {
  return ctx.isSandbox ? p.price : routePrice(deps.ownAccounts, ctx.organizationId, p).price;
}

function toMessage(id: string, ctx: SendContext, p: PreparedMessage, verdict: Verdict | null, now: Date): Message {
  const live = !ctx.isSandbox;
  // A time within the next second is now: a client's clock a little ahead must not park a message for nothing.
  const releaseAt = p.sendAt && p.sendAt.getTime() > now.getTime() + 1_000 ? p.sendAt : null;
  return {
    id, organizationId: ctx.organizationId, internalMessageId: `msg_${id.replace(/-/g, '')}`, channel: p.channel,
    recipient: p.recipient, country: p.country, network: p.network ?? null, subject: p.subject, body: p.body, push: p.push, templateId: p.templateId, category: p.category,
    status: verdict ? 'REJECTED' : releaseAt ? 'SCHEDULED' : 'QUEUED', scheduledAt: verdict ? null : releaseAt, errorCode: verdict?.code ?? null, errorMessage: verdict?.message ?? null,
    cost: verdict || !live ? 0 : p.price, price: p.price, segments: p.segments, encoding: p.encoding, isSandbox: ctx.isSandbox,
    apiKeyId: ctx.apiKeyId, userId: ctx.userId, senderId: p.senderId, provider: null, providerMessageId: null, attempts: 0,
    leaseUntil: null, createdAt: now, updatedAt: now, sentAt: null, deliveredAt: null, failedAt: null,
    ...(p.sealedContent && !verdict ? { sealedContent: p.sealedContent } : {}),
    ...(p.metaTemplate ? { whatsappTemplate: p.metaTemplate.send } : {}),
    ...(p.locale ? { locale: p.locale } : {}),
  };
}

/** The opt-out links the accepted messages carry (docs/consent.md), in one statement: the hosted page finds them by token. */
async function recordOptOutLinks(tx: Repositories, accepted: ReadonlyArray<{ organizationId: string; prepared: readonly PreparedMessage[]; messages: readonly Message[] }>,
  now: Date): Promise<void> {
  const links = accepted.flatMap(({ organizationId, prepared, messages }) => prepared.flatMap((p, k) => (p.optOutToken && messages[k]?.status !== 'REJECTED'
    ? [{ token: p.optOutToken, organizationId, channel: p.channel, recipient: p.recipient, createdAt: now }] : [])));
  if (links.length > 0) await tx.optOutLinks.insertMany(links);
}

/** The tracked short links of the accepted messages (docs/links.md), in one statement: only these codes redirect. */
async function recordTrackedLinks(tx: Repositories, accepted: ReadonlyArray<{ organizationId: string; prepared: readonly PreparedMessage[]; messages: readonly Message[] }>,
  now: Date, retentionMonths: number): Promise<void> {
  const expiresAt = retentionMonths > 0 ? addMonths(now, retentionMonths) : null;
  const links = accepted.flatMap(({ organizationId, prepared, messages }) => prepared.flatMap((p, k) => {
    const message = messages[k];
    if (!p.trackedLinks?.length || !message || message.status === 'REJECTED') return [];
    return p.trackedLinks.map((l) => ({ code: l.code, organizationId, messageId: message.id, templateId: message.templateId, url: l.url, createdAt: now, expiresAt }));
  }));
  if (links.length > 0) await tx.trackedLinks.insertMany(links);
}

function addMonths(at: Date, months: number): Date {
  const d = new Date(at.getTime());
  d.setUTCMonth(d.getUTCMonth() + months);
  return d;
}
