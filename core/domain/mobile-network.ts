import { NUMBERING_PLANS, type CountryNumberingPlan } from './network-prefixes.ts';

/** A mobile network within a country: the key routes and prices use ('GH', 'MTN'). */
export interface MobileNetwork {
  country: string;
  network: string;
}

/** Where a number's network came from; a lookup or a delivery report beats the prefix (portability). */
export type NetworkSource = 'prefix' | 'lookup' | 'report';

export interface KnownNetwork extends MobileNetwork {
  source: NetworkSource;
}

interface CountryIndex {
  country: string;
  /** Prefix lengths present, longest first. */
  lengths: number[];
  byPrefix: Map<string, string>;
}

export interface PrefixIndex {
  byCallingCode: Map<string, CountryIndex>;
  byMccMnc: Map<string, MobileNetwork>;
}

/** Compiles numbering plans into maps: a lookup is a few Map reads (the send path calls it per message). */
export function compilePrefixIndex(plans: readonly CountryNumberingPlan[]): PrefixIndex {
  const byCallingCode = new Map<string, CountryIndex>();
  const byMccMnc = new Map<string, MobileNetwork>();
  for (const plan of plans) {
    const byPrefix = new Map<string, string>();
    for (const net of plan.networks) {
      for (const prefix of net.prefixes) byPrefix.set(prefix, net.network);
      for (const code of net.mccMnc) byMccMnc.set(code, { country: plan.country, network: net.network });
    }
    const lengths = [...new Set([...byPrefix.keys()].map((p) => p.length))].sort((a, b) => b - a);
    byCallingCode.set(plan.callingCode, { country: plan.country, lengths, byPrefix });
  }
  return { byCallingCode, byMccMnc };
}

/** The built-in plans, compiled once. */
export const DEFAULT_PREFIX_INDEX: PrefixIndex = compilePrefixIndex(NUMBERING_PLANS);

/**
 * The network an E.164 number's prefix belongs to (longest prefix wins), or null: a country without a
 * plan, a fixed line, an unallocated block. Indicative only: a ported number keeps its old prefix.
 */
export function networkByPrefix(e164: string, index: PrefixIndex = DEFAULT_PREFIX_INDEX): MobileNetwork | null {
  const digits = e164.startsWith('+') ? e164.slice(1) : e164;
  for (let ccLength = 1; ccLength <= 3; ccLength++) {
    const plan = index.byCallingCode.get(digits.slice(0, ccLength));
    if (!plan) continue;
    const nsn = digits.slice(ccLength);
    for (const length of plan.lengths) {
      const network = plan.byPrefix.get(nsn.slice(0, length));
      if (network) return { country: plan.country, network };
    }
    return null;
  }
  return null;
}

/** The network a vendor's MCC+MNC code names ('62002' -> GH TELECEL), or null for a code we do not know. */
export function networkByMccMnc(code: string | null | undefined, index: PrefixIndex = DEFAULT_PREFIX_INDEX): MobileNetwork | null {
  if (!code) return null;
  const digits = code.replace(/\D/g, '');
  return index.byMccMnc.get(digits) ?? null;
}

/** Every network of a country (admin forms, validation). */
export function networksOf(country: string, plans: readonly CountryNumberingPlan[] = NUMBERING_PLANS): string[] {
  return plans.find((p) => p.country === country.toUpperCase())?.networks.map((n) => n.network) ?? [];
}

/** Whether (country, network) is a network the plans know. */
export function isKnownNetwork(country: string, network: string): boolean {
  return networksOf(country).includes(network.toUpperCase());
}

/**
 * An organization's number lookup setting (docs/routing.md, "Number lookups"): 'off' trusts the
 * prefix (and what delivery reports taught), 'unknown' looks up numbers no prefix or report places,
 * 'always' looks up every number not known from a lookup or report within the cache TTL.
 */
export const LOOKUP_MODES = ['off', 'unknown', 'always'] as const;
export type LookupMode = (typeof LOOKUP_MODES)[number];

/** Whether a number whose best knowledge is `known` needs a (paid) lookup under `mode`. */
export function needsLookup(mode: LookupMode, known: KnownNetwork | null): boolean {
  if (mode === 'off') return false;
  if (known && known.source !== 'prefix') return false;
  return mode === 'always' || known === null;
}
