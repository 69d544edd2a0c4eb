import { AppError } from '../../errors.ts';
import { needsLookup, type KnownNetwork } from '../../domain/mobile-network.ts';
import type { RoutingSettingsRepository } from '../../ports/routing-settings-repository.ts';
import type { Clock } from '../../ports/clock.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import type { NumberIntelligence, NumberLookup } from '../../ports/number-intelligence.ts';
import type { NumberNetworkRepository } from '../../ports/number-network-repository.ts';
import type { Storage } from '../../ports/storage.ts';

/** What a paid number lookup needs (docs/routing.md, "Number lookups"). */
export interface NumberLookupDeps {
  storage: Pick<Storage, 'transaction'>;
  clock: Clock;
  ids: IdGenerator;
  /** Stored answers: a number looked up within the TTL is not looked up (nor charged) again. */
  numbers: NumberNetworkRepository;
  /** Learns the answer (memory now, the database for every process). */
  intelligence: NumberIntelligence;
  /** The configured vendor lookup, or null (lookups off platform-wide). */
  lookup: NumberLookup | null;
  /** Pesewas charged per vendor lookup, like a send: one DEBIT ledger entry, refunded when the vendor fails. */
  pricePerLookup: number;
  /** How long an answered lookup (even "not known") keeps the number from being looked up and charged again; default 30 days. */
  ttlMs?: number | undefined;
}

/** How long a lookup in flight holds its number's claim (the vendor call times out well before). */
const CLAIM_IN_FLIGHT_MS = 60_000;
const DEFAULT_TTL_MS = 30 * 24 * 60 * 60_000;

export interface LookupOutcome {
  network: KnownNetwork | null;
  /** Pesewas debited for this lookup (0: answered from the stored answers). */
  charged: number;
  cached: boolean;
}

/**
 * The network of `e164` from a stored answer, or from the vendor: the organization's wallet is debited
 * the lookup price first (INSUFFICIENT_BALANCE when it does not cover it), the vendor asked, and the
 * debit refunded when the vendor fails (its error rethrown: PROVIDER_UNAVAILABLE or LOOKUP_FAILED).
 */
export async function lookUpNetwork(deps: NumberLookupDeps, organizationId: string, e164: string, country: string | null): Promise<LookupOutcome> {
  const { clock, storage } = deps;
  const stored = await deps.numbers.find(e164, clock.now());
  if (stored && (stored.source === 'lookup' || stored.source === 'report')) {
    return { network: { country: stored.country, network: stored.network, source: stored.source }, charged: 0, cached: true };
  }
  if (!deps.lookup) throw new AppError('LOOKUP_FAILED', 'No number lookup vendor is configured on this platform (NUMBER_LOOKUP_VENDOR)');
  // One lookup per number at a time and per TTL, whichever process or send path asks: the others go on without one, uncharged.
  const claimedAt = clock.now();
  if (!(await deps.numbers.claimLookup(e164, organizationId, claimedAt, new Date(claimedAt.getTime() + CLAIM_IN_FLIGHT_MS)))) return { network: null, charged: 0, cached: true };
  const reference = `lookup:${deps.ids.next()}`;
  const price = deps.pricePerLookup;
  if (price > 0) {
    const { entry } = await storage.transaction((tx) => tx.wallets.update(organizationId, (wallet) => (wallet.balance < price ? null : {
      amount: -price, kind: 'DEBIT', reference, description: `Number lookup ${maskNumber(e164)}`,
    }), clock.now()));
    if (!entry) {
      await deps.numbers.releaseLookup(e164);
      throw new AppError('INSUFFICIENT_BALANCE', 'The wallet does not cover a number lookup', { price });
    }
  }
  try {
    const answer = await deps.lookup.lookup(e164, country);
    const network = answer.network && (!country || answer.network.country === country) ? answer.network : null;
    if (network) await deps.intelligence.learn(e164, network, 'lookup');
    await deps.numbers.settleLookup(e164, new Date(clock.now().getTime() + (deps.ttlMs ?? DEFAULT_TTL_MS)));
    return { network: network ? { ...network, source: 'lookup' } : null, charged: price, cached: false };
  } catch (error) {
    if (price > 0) {
      await storage.transaction((tx) => tx.wallets.update(organizationId, () => ({
        amount: price, kind: 'REFUND', reference, description: `Refund: number lookup ${maskNumber(e164)} failed`,
      }), clock.now()));
    }
    await deps.numbers.releaseLookup(e164);
    throw error;
  }
}

/** A number as a ledger line shows it: the last four digits hidden. */
export function maskNumber(e164: string): string {
  return e164.length > 6 ? `${e164.slice(0, -4)}****` : '****';
}

/** Paid lookups on the send path: the platform's lookup and the organizations' modes (cached: no statement per message). */
export interface SendLookups {
  deps: NumberLookupDeps;
  settings: RoutingSettingsRepository;
}

/**
 * Before a send is priced for good: when the organization's mode asks for a lookup of this number
 * (needsLookup), looks it up (charged) and, when the answer moves the number to another network,
 * prepares the message again so it is priced and routed as that network. A failed lookup leaves the
 * prefix's answer (its charge refunded): a lookup never fails a send.
 */
export async function preparedWithLookup<P extends { recipient: string; country: string | null; network?: string | null }>(
  lookups: SendLookups | undefined, organizationId: string, prepared: P, prepareAgain: () => P): Promise<P> {
  if (!lookups || !prepared.country || !prepared.recipient.startsWith('+')) return prepared;
  const mode = await lookups.settings.lookupMode(organizationId);
  if (!needsLookup(mode, lookups.deps.intelligence.known(prepared.recipient))) return prepared;
  const outcome = await lookUpNetwork(lookups.deps, organizationId, prepared.recipient, prepared.country).catch(() => null);
  return outcome?.network && outcome.network.network !== prepared.network ? prepareAgain() : prepared;
}
