import type { TraceCapture } from '../../ports/trace-capture.ts';
import type { CredentialCipher } from '../../ports/credential-cipher.ts';
import type { OptOutLinkSigner } from '../../ports/opt-out-links.ts';
import { AppError } from '../../errors.ts';
import { FINAL_STATUSES, type Message } from '../../domain/message.ts';
import { noProviderForDestination } from '../../domain/recipient.ts';
import type { ProviderDirectory, ProviderResult } from '../../ports/channel-provider.ts';
import type { Clock } from '../../ports/clock.ts';
import type { RouteObserver } from '../../ports/route-observer.ts';
import type { NumberIntelligence } from '../../ports/number-intelligence.ts';
import { networkByMccMnc } from '../../domain/mobile-network.ts';
import { laneOf } from '../../domain/delivery-lane.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import type { MessageAttempt } from '../../ports/message-status-repository.ts';
import type { Storage } from '../../ports/storage.ts';
import type { WebhookSubscriptions } from '../../ports/webhook-subscriptions.ts';
import { AcceptedAttemptRecorder } from './accepted-attempt-recorder.ts';
import { lookedUpForDelivery, type DeliveryLookups } from '../routing/delivery-lookup.ts';
import { openContent, unsubscribeHeaders } from './delivery-content.ts';
import { failDelivery } from './delivery-failure.ts';
import { backOffOnThrottle, paceProvider, paceTenant, postponeDelivery, type DeliveryPacing } from './delivery-pacing.ts';

export interface DeliverMessageDeps {
  storage: Storage;
  /** Gives a marketing email its RFC 8058 one-click unsubscribe headers (docs/consent.md). */
  optOutLinks?: OptOutLinkSigner | undefined;
  providers: ProviderDirectory;
  /** Opens a message's sealed content (a passcode's clear text, docs/verify.md); without it such a message fails. */
  sealer?: CredentialCipher | undefined;
  clock: Clock;
  ids: IdGenerator;
  /** Delivery attempts before a message with only transient failures is failed (and refunded). */
  maxAttempts: number;
  /** How long one attempt holds the message against other workers. */
  leaseSeconds: number;
  /** Told about every status change (metrics, webhooks). */
  onStatusChange?: (message: Message) => void;
  /** When given, every status change is published as a message.status.updated event for organizations with subscribers. */
  webhooks?: WebhookSubscriptions;
  /**
   * The platform's price of a message (pesewas): a message priced at the own-account fee that falls
   * over from the organization's own vendor accounts to the platform's providers is charged the
   * difference first (docs/providers.md). Without it, fallbacks are not charged extra.
   */
  platformPrice?: (message: Message) => Promise<number>;
  /** Providers' configured rates and organizations' ceilings, shared by every process (delivery-pacing.ts); without it, nothing is paced. */
  pacing?: DeliveryPacing | undefined;
  /** Tracing on (docs/observability.md): see AcceptedAttemptRecorderDeps.traces. */
  traces?: TraceCapture | undefined;
  /** Told about each accepted message to a known network (learning routes, docs/routing.md); counts in memory. */
  routes?: RouteObserver | undefined;
  /** Learns the network a vendor's answer names (Hubtel `networkId`): a ported number's next message routes right. */
  networks?: NumberIntelligence | undefined;
  /** Paid number lookups for organizations that turned them on, before the providers are chosen (docs/routing.md); without it, none. */
  lookups?: DeliveryLookups | undefined;
}

/** What delivering one message came to: its message as left (null when unknown), or the error its job should see. */
export type DeliveryOutcome = { message: Message | null; error?: undefined } | { error: unknown; message?: undefined };

/** What the providers made of one claimed message. */
interface Tried {
  message: Message;
  /** The accepted attempt (provider and vendor id in it), and whether the provider confirmed delivery at once. */
  accepted: { attempt: MessageAttempt; delivered: boolean } | null;
  failures: Array<Extract<ProviderResult, { accepted: false }>>;
  lastProvider: string | null;
  /** Set when no rate slot was in reach: the milliseconds to postpone the delivery by. */
  postponeMs: number | null;
}

/**
 * Delivers messages: claims them (QUEUED or PENDING, lease free), tries the providers for each one's
 * channel and country in failover order, and records the outcome. Accepted -> SENT (or DELIVERED when
 * the provider confirms at once). A transient failure (timeout, 5xx, throttling) or an account-level one
 * (the vendor refused our account: authentication, sender, vendor balance, suspension) moves to the next
 * provider; a recipient's or the message's failure (invalid number, opted out) ends the delivery.
 * Only those permanent failures, or transient/account-level ones past `maxAttempts` ->
 * FAILED, and the charge is refunded (one REFUND ledger entry referencing the message: never twice).
 * Transient failures leave it PENDING and come back as a retryable PROVIDER_UNAVAILABLE so the queue
 * retries. Idempotent: a message already SENT or final is returned untouched; one held by another
 * attempt's lease comes back as a retryable CONFLICT, so its job returns after the lease instead of
 * completing.
 *
 * Set-based on the hot path (docs/messaging.md, "Delivery"): a batch is claimed in one statement, its
 * messages go to their providers concurrently (each provider bounds its own concurrency), and accepted
 * attempts are recorded together (AcceptedAttemptRecorder). Failures, rare, are settled one by one.
 */
export class DeliverMessage {
  readonly #deps: DeliverMessageDeps;
  readonly #recorder: AcceptedAttemptRecorder;
  constructor(deps: DeliverMessageDeps) {
    this.#deps = deps;
    this.#recorder = new AcceptedAttemptRecorder({ storage: deps.storage, ids: deps.ids, webhooks: deps.webhooks, traces: deps.traces });
  }

  /** One message; throws what its job should see. */
  async execute(messageId: string): Promise<Message | null> {
    const [outcome] = await this.executeMany([messageId]);
    if (!outcome || outcome.error !== undefined) throw outcome?.error ?? new Error('no delivery outcome');
    return outcome.message ?? null;
  }

  /** A batch (a fetched batch of jobs): one outcome per id, in order; never throws for one message's sake. */
  async executeMany(messageIds: readonly string[]): Promise<DeliveryOutcome[]> {
    const { storage, clock } = this.#deps;
    const now = clock.now();
    const unique = [...new Set(messageIds)];
    // Claim first (one statement); only messages that cannot be claimed are read to find out why.
    const claimed = await storage.messages.claimManyForDelivery(unique, now, new Date(now.getTime() + this.#deps.leaseSeconds * 1000));
    const claimedIds = new Set(claimed.map((m) => m.id));
    const outcomes = new Map<string, DeliveryOutcome>();
    const settle = async (id: string, work: () => Promise<Message | null>) => {
      outcomes.set(id, await work().then((message) => ({ message }), (error: unknown) => ({ error })));
    };
    await Promise.all([
      ...unique.filter((id) => !claimedIds.has(id)).map((id) => settle(id, () => this.#unclaimed(id))),
      ...claimed.map((message) => settle(message.id, async () => this.#settle(await this.#tryProviders(await lookedUpForDelivery(this.#deps.lookups, this.#deps, message))))),
    ]);
    return messageIds.map((id) => outcomes.get(id)!);
  }

  /** Why a message could not be claimed: done already (returned), or leased by another attempt (retryable CONFLICT). */
  async #unclaimed(messageId: string): Promise<Message | null> {
    const latest = await this.#deps.storage.messages.findForDelivery(messageId);
    if (!latest || FINAL_STATUSES.includes(latest.status) || latest.status === 'SENT') return latest;
    // Another attempt holds the lease (alive, or killed mid-job): come back after it, never complete the job and strand the message.
    if (latest.status === 'QUEUED' || latest.status === 'PENDING') {
      throw new AppError('CONFLICT', 'The message is being delivered by another attempt', { messageId, leaseUntil: latest.leaseUntil?.toISOString() ?? null }, { retryable: true });
    }
    return latest;
  }

  /** The providers for the message, in failover order, until one accepts or a failure is permanent. Failed attempts are recorded as they happen. */
  async #tryProviders(claimed: Message): Promise<Tried> {
    const { clock, storage } = this.#deps;
    const tried: Tried = { message: claimed, accepted: null, failures: [], lastProvider: null, postponeMs: null };
    let ownAccountTried = false;
    let fallbackCharged = false;
    const candidates = this.#deps.providers.providersFor(claimed.channel, claimed.country, claimed.isSandbox, claimed.organizationId, claimed.network ?? null);
    // A push provider serves one kind of device token: the others are skipped; none left is a permanent failure.
    const serving = candidates.filter((provider) => provider.accepts?.(claimed.recipient) !== false);
    if (serving.length === 0 && candidates.length > 0) {
      tried.failures.push({ accepted: false, retryable: false, errorCode: 'NO_PROVIDER_FOR_TOKEN', errorMessage: noProviderForDestination(claimed.channel, claimed.recipient) });
    }
    const content = openContent(this.#deps.sealer, claimed);
    if (!content) tried.failures.push({ accepted: false, retryable: false, errorCode: 'CONTENT_UNREADABLE', errorMessage: 'The message text could not be decrypted' });
    // The organization's ceiling (a sandbox send reaches no vendor: not counted).
    if (content && serving.length > 0 && !claimed.isSandbox) tried.postponeMs = await paceTenant(this.#deps.pacing, claimed.organizationId);
    if (tried.postponeMs !== null) return tried;
    for (const provider of content ? serving : []) {
      if (provider.organizationId) ownAccountTried = true;
      else if (ownAccountTried && !fallbackCharged) {
        fallbackCharged = true;
        const charged = await this.#chargePlatformFallback(tried.message);
        if (!charged) {
          tried.failures.push({ accepted: false, retryable: false, errorCode: 'INSUFFICIENT_BALANCE', errorMessage: 'The own vendor accounts failed and the wallet does not cover the platform price' });
          break;
        }
        tried.message = charged;
      }
      // A rate wait is not a failure: the delivery is postponed for this provider, not failed over (docs/providers.md, "Rate shaping").
      tried.postponeMs = await paceProvider(this.#deps.pacing, provider);
      if (tried.postponeMs !== null) break;
      const started = clock.now().getTime();
      tried.lastProvider = provider.name;
      const result = await provider.send({
        messageId: claimed.id, internalMessageId: claimed.internalMessageId, organizationId: claimed.organizationId, lane: laneOf(claimed.category), channel: claimed.channel,
        to: claimed.recipient, subject: content!.subject, body: content!.body, push: claimed.push ?? null,
        ...(content!.whatsappTemplate ? { whatsappTemplate: content!.whatsappTemplate } : {}), senderId: claimed.senderId, ...unsubscribeHeaders(this.#deps.optOutLinks, claimed),
      }).catch((error: unknown): ProviderResult => ({ accepted: false, retryable: true, errorCode: 'PROVIDER_ERROR', errorMessage: error instanceof Error ? error.message : String(error) }));
      const attempt: MessageAttempt = {
        id: this.#deps.ids.next(), messageId: claimed.id, attempt: claimed.attempts, provider: provider.name, outcome: result.accepted ? 'ACCEPTED' : 'FAILED',
        retryable: !result.accepted && result.retryable, errorCode: result.accepted ? null : result.errorCode, errorMessage: result.accepted ? null : result.errorMessage,
        providerMessageId: result.accepted ? result.providerMessageId : null, durationMs: clock.now().getTime() - started, createdAt: clock.now(),
      };
      if (result.accepted) {
        if (!claimed.isSandbox) this.#observeAccepted(claimed, provider.name, result.networkCode ?? null);
        tried.accepted = { attempt, delivered: result.delivered === true };
        return tried;
      }
      await storage.messageStatus.recordAttempt(attempt);
      await backOffOnThrottle(this.#deps.pacing, provider, result);
      tried.failures.push(result);
      // A recipient's or the message's failure ends it; a transient or account-level one fails over (docs/failover.md).
      if (!failsOver(result)) break;
    }
    return tried;
  }

  /** Counts the send for its (provider, network) and learns the network the vendor named, if it differs. Never throws. */
  #observeAccepted(message: Message, provider: string, networkCode: string | null): void {
    const named = networkByMccMnc(networkCode);
    const network = named && named.country === message.country ? named : message.network && message.country ? { country: message.country, network: message.network } : null;
    if (!network) return;
    this.#deps.routes?.sent(provider, network, this.#deps.clock.now());
    if (named && named.network !== message.network) this.#deps.networks?.learn(message.recipient, named, 'report').catch(() => undefined);
  }

  /**
   * Before the platform's providers take a message priced at the own-account fee: the difference to
   * the platform price, debited only when the balance covers it (one ledger entry per message, its
   * reference `<message id>:platform-fallback`), with the message's cost raised to match so a refund
   * returns all of it. Null when the wallet does not cover it; the message unchanged when nothing is owed.
   */
  async #chargePlatformFallback(message: Message): Promise<Message | null> {
    const full = await this.#deps.platformPrice?.(message);
    if (full === undefined || full <= message.cost) return message;
    const extra = full - message.cost;
    const { storage, clock } = this.#deps;
    return storage.transaction(async (tx) => {
      const now = clock.now();
      const { entry } = await tx.wallets.update(message.organizationId, (wallet) => (wallet.balance < extra ? null : {
        amount: -extra, kind: 'DEBIT', reference: `${message.id}:platform-fallback`,
        description: `${message.channel} message ${message.internalMessageId}: platform delivery after the own vendor accounts failed`,
      }), now);
      if (!entry) return null;
      await tx.messages.transition(message.id, [message.status], { cost: full, updatedAt: now });
      return { ...message, cost: full };
    });
  }

  /** Records what the providers made of a claimed message. */
  async #settle({ message: claimed, accepted, failures, lastProvider, postponeMs }: Tried): Promise<Message | null> {
    const { storage, clock } = this.#deps;
    if (!accepted && postponeMs !== null) return postponeDelivery(this.#deps, claimed, postponeMs, failures.length > 0);
    if (accepted) {
      // Attempt, transition and status event in one statement, shared with the other deliveries finishing now.
      const moved = await this.#recorder.record(claimed.organizationId, {
        attempt: accepted.attempt, status: accepted.delivered ? 'DELIVERED' : 'SENT', at: clock.now(), event: { id: this.#deps.ids.next(), source: `provider:${accepted.attempt.provider}` },
      });
      if (moved) this.#deps.onStatusChange?.(moved);
      return moved;
    }
    const last = failures[failures.length - 1] ?? { accepted: false as const, retryable: false, errorCode: 'NO_PROVIDER', errorMessage: `No provider configured for ${claimed.channel}` };
    // Only a recipient's or the message's failure is permanent: our accounts' failures (all providers refused the account) are retried like an outage.
    const permanent = !failsOver(last) || claimed.attempts >= this.#deps.maxAttempts;
    if (permanent) return failDelivery(this.#deps, claimed, last.errorCode, last.errorMessage, lastProvider);
    await storage.messages.transition(claimed.id, ['PENDING'], { errorCode: last.errorCode, errorMessage: last.errorMessage, leaseUntil: null, updatedAt: clock.now() });
    throw new AppError('PROVIDER_UNAVAILABLE', `Delivery attempt ${claimed.attempts} failed: ${last.errorMessage}`, { messageId: claimed.id, errorCode: last.errorCode }, { retryable: true });
  }

}

/** Whether a failure moves the message to the next provider: transient, or our account's (docs/failover.md). */
export function failsOver(result: Extract<ProviderResult, { accepted: false }>): boolean {
  return result.retryable || result.accountLevel === true;
}
