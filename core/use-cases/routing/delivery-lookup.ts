import { needsLookup } from '../../domain/mobile-network.ts';
import type { Message } from '../../domain/message.ts';
import type { Clock } from '../../ports/clock.ts';
import type { Storage } from '../../ports/storage.ts';
import { lookUpNetwork, type SendLookups } from './number-lookup-support.ts';

/** Paid lookups at delivery (every send path but the single send, which looks up before pricing). */
export interface DeliveryLookups extends SendLookups {
  /** The platform price (pesewas) of `message` sent to `network` (null: the country's); null when no rule prices it. */
  priceFor(message: Message, network: string | null): Promise<number | null>;
}

/**
 * Before a live message's providers are chosen: when its organization's lookup mode asks for a lookup of
 * the number (needsLookup: not known from a lookup or report within the TTL), looks it up, charged like a
 * send (lookUpNetwork: debit first, one claim per number per TTL, refunded when the vendor fails). When the
 * answer moves the number to another network, the message is routed as that network and repriced: if it
 * was charged the platform price of its old network, the difference to the new network's price is debited
 * (when the wallet covers it; otherwise it keeps the price it was accepted at) or refunded, in one ledger
 * entry `<message id>:network-price`, with the message's network and cost, in one transaction. A lookup
 * never fails a delivery: on any error the message goes as it was. Runs in the message's own delivery
 * job, so lookups are as concurrent as deliveries (bounded by the worker's batch), never a campaign at once.
 * A number whose network was learnt after the message was accepted (a lookup for another of its
 * messages, a delivery report) is moved and repriced the same way, without a lookup or its charge.
 */
export async function lookedUpForDelivery(lookups: DeliveryLookups | undefined, deps: { storage: Storage; clock: Clock }, message: Message): Promise<Message> {
  if (!lookups || message.isSandbox || !message.country || !message.recipient.startsWith('+')) return message;
  const mode = await lookups.settings.lookupMode(message.organizationId);
  if (mode === 'off') return message;
  const known = lookups.deps.intelligence.known(message.recipient);
  if (!needsLookup(mode, known)) {
    // Learnt since the message was accepted (another recipient's lookup, a report): moved for free.
    const learnt = known && known.source !== 'prefix' && known.country === message.country ? known.network : null;
    return learnt && learnt !== message.network ? moveToNetwork(lookups, deps, message, learnt).catch(() => message) : message;
  }
  const outcome = await lookUpNetwork(lookups.deps, message.organizationId, message.recipient, message.country).catch(() => null);
  const network = outcome?.network?.network ?? null;
  if (!network || network === message.network) return message;
  return moveToNetwork(lookups, deps, message, network).catch(() => message);
}

async function moveToNetwork(lookups: DeliveryLookups, { storage, clock }: { storage: Storage; clock: Clock }, message: Message, network: string): Promise<Message> {
  const [before, after] = await Promise.all([lookups.priceFor(message, message.network ?? null), lookups.priceFor(message, network)]);
  // Only a message charged its old network's platform price is repriced (not an own-account fee, nor a price changed since).
  const repriced = before !== null && after !== null && before === message.cost && after !== before;
  return storage.transaction(async (tx) => {
    const now = clock.now();
    let cost = message.cost;
    if (repriced) {
      const difference = after - before;
      const { entry } = await tx.wallets.update(message.organizationId, (wallet) => (difference > 0 && wallet.balance < difference ? null : {
        amount: -difference, kind: difference > 0 ? 'DEBIT' : 'REFUND', reference: `${message.id}:network-price`,
        description: `${message.channel} message ${message.internalMessageId}: priced as ${message.country}/${network} after a number lookup`,
      }), now);
      if (entry) cost = after;
    }
    const moved = await tx.messages.transition(message.id, [message.status], { network, cost, updatedAt: now });
    return moved ? { ...message, network, cost } : message;
  });
}
