import type { DeliveryStatus } from '../../domain/channel.ts';
import type { Message } from '../../domain/message.ts';
import type { Clock } from '../../ports/clock.ts';
import type { RouteObserver } from '../../ports/route-observer.ts';
import type { NumberIntelligence } from '../../ports/number-intelligence.ts';
import { networkByMccMnc, type MobileNetwork } from '../../domain/mobile-network.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import type { Storage } from '../../ports/storage.ts';
import type { DeliveryReport } from '../../ports/vendor-adapter.ts';
import type { WebhookSubscriptions } from '../../ports/webhook-subscriptions.ts';
import { messageStatusUpdatedEvent } from '../../domain/webhook.ts';
import { publishOutboundEvent } from '../webhooks/publish-outbound-event.ts';
import { scheduleTriggerFallback } from '../events/schedule-trigger-fallback.ts';
import { schedulePasscodeFallback } from '../verify/schedule-passcode-fallback.ts';
import { diedOfDeadToken, publishesTokenRemoval, removeDeadPushToken } from '../contacts/remove-dead-push-token.ts';

/** How far along a status is: a report may only move a message forward. */
const RANK: Record<DeliveryStatus, number> = { SCHEDULED: 0, QUEUED: 0, PENDING: 1, SENT: 2, DELIVERED: 3, FAILED: 3, REJECTED: 3, CANCELLED: 3 };

export interface ApplyDeliveryReportDeps {
  storage: Storage;
  clock: Clock;
  ids: IdGenerator;
  onStatusChange?: (message: Message) => void;
  /** When given, every change is published as a message.status.updated event for organizations with subscribers. */
  webhooks?: WebhookSubscriptions;
  /** Told about each final report of a message to a known network (learning routes, docs/routing.md). */
  routes?: RouteObserver | undefined;
  /** Learns the network a report names when it differs from the message's (a ported number). */
  networks?: NumberIntelligence | undefined;
}

/**
 * Applies a vendor delivery report (callback or polling) to its message. The state never moves
 * backwards (a late SENT after DELIVERED changes nothing), duplicates are harmless, a final FAILED
 * refunds the charge (once: the REFUND ledger entry references the message), and every real change is
 * recorded as a status event for history and `message.status.updated` webhooks. Unknown references
 * are ignored (returns null).
 */
export class ApplyDeliveryReport {
  readonly #deps: ApplyDeliveryReportDeps;
  constructor(deps: ApplyDeliveryReportDeps) { this.#deps = deps; }

  /**
   * `provider`: the provider name the message recorded, or the names of the providers sharing the vendor
   * account the report came from (the first whose message the vendor id names takes it).
   */
  async execute(provider: string | readonly string[], report: DeliveryReport, source: string): Promise<Message | null> {
    const { storage, clock, ids } = this.#deps;
    let message: Message | null = null;
    for (const name of typeof provider === 'string' ? [provider] : provider) {
      message = await storage.messageStatus.findByProviderRef(name, report.providerMessageId);
      if (message) break;
    }
    if (!message || RANK[report.status] <= RANK[message.status]) return null;
    const reportedNetwork = networkByMccMnc(report.networkCode);
    const network = reportedNetwork && reportedNetwork.country === message.country ? reportedNetwork : null;
    const publish = this.#deps.webhooks ? await this.#deps.webhooks.hasSubscribers(message.organizationId, 'message.status.updated') : false;
    const deadToken = report.status === 'FAILED' && diedOfDeadToken(message, report.errorCode);
    const publishRemoval = deadToken && await publishesTokenRemoval(this.#deps.webhooks, message.organizationId);
    const changed = await storage.transaction(async (tx) => {
      const now = clock.now();
      const at = report.occurredAt ?? now;
      const from: DeliveryStatus[] = (Object.keys(RANK) as DeliveryStatus[]).filter((s) => RANK[s] < RANK[report.status]);
      // Wallet row first when a refund may follow, as the send path does: the transition also locks analytics counter rows (migration 0010).
      if (report.status === 'FAILED' && message.cost > 0) await tx.wallets.update(message.organizationId, () => null, now);
      // The network the vendor reports wins over the prefix (docs/routing.md): the delivery log records it.
      const corrected = network && network.network !== message.network ? { network: network.network } : {};
      const updated = await tx.messages.transition(message.id, from, report.status === 'FAILED'
        ? { status: 'FAILED', errorCode: report.errorCode ?? 'UNDELIVERED', errorMessage: `Provider reported ${report.vendorStatus}`, failedAt: at, cost: 0, updatedAt: now, ...corrected }
        : report.status === 'DELIVERED' ? { status: 'DELIVERED', deliveredAt: at, updatedAt: now, ...corrected } : { status: 'SENT', sentAt: at, updatedAt: now, ...corrected });
      if (!updated) return null;
      if (report.status === 'FAILED' && message.cost > 0) {
        await tx.wallets.update(message.organizationId, () => ({
          amount: message.cost, kind: 'REFUND', reference: message.id, description: `Refund: ${message.channel} message ${message.internalMessageId} undelivered (${report.vendorStatus})`,
        }), now);
      }
      if (report.status === 'FAILED') await scheduleTriggerFallback(tx, message.id);
      if (report.status === 'FAILED') await schedulePasscodeFallback(tx, updated);
      if (deadToken) await removeDeadPushToken(tx, ids, updated, `Provider reported ${report.vendorStatus}`, now, publishRemoval);
      await tx.messageStatus.recordEvent({
        id: ids.next(), messageId: message.id, organizationId: message.organizationId, status: report.status, source,
        detail: report.vendorStatus, createdAt: now,
      });
      if (publish) {
        await publishOutboundEvent(tx, messageStatusUpdatedEvent(ids.next(), updated, now));
      }
      return updated;
    });
    if (changed) this.#deps.onStatusChange?.(changed);
    if (changed) this.#observe(message, changed, network);
    return changed;
  }

  /** A final report of a message to a known network feeds learning; a network the report corrects is learnt for the number. Never throws. */
  #observe(before: Message, after: Message, reported: MobileNetwork | null): void {
    if (reported && reported.network !== before.network) this.#deps.networks?.learn(before.recipient, reported, 'report').catch(() => undefined);
    // Counted under the network its send was counted under, so a ported number never leaves an unreported send behind.
    const network = before.network && before.country ? { country: before.country, network: before.network } : reported;
    if (!network || !after.provider || before.isSandbox || (after.status !== 'DELIVERED' && after.status !== 'FAILED')) return;
    this.#deps.routes?.reported(after.provider, network, after.sentAt ?? before.sentAt ?? before.createdAt, after.deliveredAt ?? after.failedAt ?? this.#deps.clock.now(), after.status === 'DELIVERED');
  }
}
