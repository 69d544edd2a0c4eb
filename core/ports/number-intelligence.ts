import type { KnownNetwork, MobileNetwork } from '../domain/mobile-network.ts';

/**
 * Number -> mobile network (docs/routing.md, "Number intelligence"). `known` is the send path's
 * question and must answer from memory (prefix tables plus corrections this process holds: no I/O per
 * message). `learn` records a correction (a lookup's or a delivery report's network wins over the
 * prefix); implementations persist it and share it with other processes within seconds. Platform-wide:
 * a number's network is a fact about the number, not tenant data.
 */
export interface NumberIntelligence {
  known(e164: string): KnownNetwork | null;
  learn(e164: string, network: MobileNetwork, source: 'lookup' | 'report'): Promise<void>;
}

/** The answer of a vendor's number lookup (HLR/MNP): the network now serving the number, or null when the vendor could not tell. */
export interface LookupResult {
  network: MobileNetwork | null;
  /** The vendor's MCC+MNC ('62002'), for the record. */
  mccMnc: string | null;
  ported: boolean | null;
}

/**
 * A vendor's paid number lookup (Twilio Lookup v2 line_type_intelligence, Termii Status API). Every call
 * has a timeout; a vendor failure is an AppError PROVIDER_UNAVAILABLE (retryable) or LOOKUP_FAILED.
 * Credentials never appear in errors.
 */
export interface NumberLookup {
  readonly vendor: string;
  /** `country`: the number's ISO country when known (Termii wants it). */
  lookup(e164: string, country?: string | null): Promise<LookupResult>;
}
