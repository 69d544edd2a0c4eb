import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import { VENDOR_HOSTS } from '../../core/domain/vendor-endpoints.ts';
import type { EgressPolicy } from '../../core/ports/egress-policy.ts';
import { forbiddenAddressReason } from './address-policy.ts';
import { requestPinned, type EgressRequest, type EgressResponse } from './pinned-request.ts';

export type Resolve = (host: string) => Promise<Array<{ address: string; family: number }>>;

export interface DnsEgressPolicyOptions {
  /**
   * EGRESS_ALLOW_PRIVATE_HOSTS: host names (as a URL writes them) whose resolved addresses are not
   * checked, `*` for every host. Development and tests only (the config refuses it in production). It
   * never widens a vendor's host allow-list.
   */
  allowPrivateHosts?: readonly string[];
  /** VENDOR_BASE_URLS: the operator's endpoint per vendor for own accounts. Operator-chosen, so trusted (a local fake in tests). */
  vendorBaseUrls?: Readonly<Record<string, string>>;
  /** Host name resolution (tests); defaults to dns.lookup with every address. */
  resolve?: Resolve;
  /** DNS resolution timeout; default 10 s. */
  timeoutMs?: number;
}

/** The URL, its host and the one checked address to connect to; `trusted`: the operator's own origin, nothing to pin. */
export interface EgressTarget { url: URL; host: string; address: string; family: 4 | 6; trusted: boolean }
/** Why not: `retryable` for a host that could not be resolved now, not for a refused one. */
export interface EgressRefusal { reason: string; retryable: boolean }

export type EgressOutcome =
  | { kind: 'answer'; response: EgressResponse }
  | { kind: 'refused'; refusal: EgressRefusal }
  | { kind: 'timeout' }
  | { kind: 'network'; code: string };

/**
 * The egress policy (core/ports/egress-policy.ts) over node's resolver: every resolved address checked
 * (address-policy.ts), the connection pinned to the checked address through a `lookup` that returns it
 * (no second DNS answer, so no rebinding), no redirects followed. For an own vendor account (`vendor`
 * given) the host must also be one of the vendor's own (VENDOR_HOSTS, https only) or the operator's
 * VENDOR_BASE_URLS origin for it; that origin is trusted as the operator wrote it.
 */
export class DnsEgressPolicy implements EgressPolicy {
  readonly #allowAll: boolean;
  readonly #allowHosts: ReadonlySet<string>;
  readonly #operatorOrigins: ReadonlyMap<string, string>;
  readonly #resolve: Resolve;
  readonly #timeoutMs: number;

  constructor(options: DnsEgressPolicyOptions = {}) {
    const hosts = (options.allowPrivateHosts ?? []).map(normalizeHost);
    this.#allowAll = hosts.includes('*');
    this.#allowHosts = new Set(hosts);
    this.#operatorOrigins = new Map(Object.entries(options.vendorBaseUrls ?? {}).flatMap(([vendor, url]) => (URL.canParse(url) ? [[vendor, new URL(url).origin] as const] : [])));
    this.#resolve = options.resolve ?? ((host) => dnsLookup(host, { all: true, verbatim: true }));
    this.#timeoutMs = options.timeoutMs ?? 10_000;
  }

  async checkUrl(url: string): Promise<string | null> {
    const target = await this.target(url, null);
    return 'reason' in target ? target.reason : null;
  }

  checkVendorUrl(vendor: string, raw: string): string | null {
    const url = parseUrl(raw);
    if (typeof url === 'string') return url;
    const host = hostOf(url);
    const hostReason = this.#vendorHostReason(vendor, url, host);
    if (hostReason || this.#operatorOrigins.get(vendor) === url.origin) return hostReason;
    return isIP(host) !== 0 && !this.#privateAllowed(host) ? forbiddenAddressReason(host) : null;
  }

  /** Where to connect for `raw` (`vendor`: an own vendor account's call, null: a webhook), or why not. Never throws. */
  async target(raw: string, vendor: string | null, timeoutMs = this.#timeoutMs): Promise<EgressTarget | EgressRefusal> {
    const url = parseUrl(raw);
    if (typeof url === 'string') return { reason: url, retryable: false };
    const host = hostOf(url);
    const hostReason = vendor === null ? null : this.#vendorHostReason(vendor, url, host);
    if (hostReason) return { reason: hostReason, retryable: false };
    const operator = vendor !== null && this.#operatorOrigins.get(vendor) === url.origin;
    const resolved = await this.#addresses(host, operator || this.#privateAllowed(host), timeoutMs);
    if ('reason' in resolved) return resolved;
    return { url, host, ...resolved, trusted: operator };
  }

  /** One request under the policy: refused before any connection, else sent to the checked address. Never throws. */
  async fetch(raw: string, request: EgressRequest, vendor: string | null): Promise<EgressOutcome> {
    const started = performance.now();
    const target = await this.target(raw, vendor, Math.min(this.#timeoutMs, request.timeoutMs));
    if ('reason' in target) return { kind: 'refused', refusal: target };
    const remaining = Math.max(1, request.timeoutMs - Math.round(performance.now() - started));
    return requestPinned(target, { ...request, timeoutMs: remaining });
  }

  /**
   * For connections node opens itself (HTTP/2 sessions): throws a refusal for a URL the policy refuses
   * outright, else returns the `lookup` to connect with, which resolves, checks every address and hands
   * node only a checked one (node does not call it for an IP literal, which is checked here).
   */
  connectLookup(raw: string, vendor: string | null): LookupFunction {
    const url = parseUrl(raw);
    if (typeof url === 'string') throw new Error(url);
    const host = hostOf(url);
    const hostReason = vendor === null ? null : this.#vendorHostReason(vendor, url, host);
    if (hostReason) throw new Error(hostReason);
    const trusted = (vendor !== null && this.#operatorOrigins.get(vendor) === url.origin) || this.#privateAllowed(host);
    if (isIP(host) !== 0 && !trusted) { const reason = forbiddenAddressReason(host); if (reason) throw new Error(reason); }
    return (hostname, options, callback) => {
      this.#addresses(hostname, trusted, this.#timeoutMs).then((resolved) => {
        if ('reason' in resolved) return callback(Object.assign(new Error(resolved.reason), { code: 'EGRESS_REFUSED' }), '', 4);
        if (options.all) (callback as unknown as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [resolved]);
        else callback(null, resolved.address, resolved.family);
      }, (error: unknown) => callback(error as NodeJS.ErrnoException, '', 4));
    };
  }

  #vendorHostReason(vendor: string, url: URL, host: string): string | null {
    if (this.#operatorOrigins.get(vendor) === url.origin) return null;
    const own = VENDOR_HOSTS[vendor];
    if (!own) return null;
    if (!own.includes(host)) return `${host} is not a ${vendor} host (allowed: ${own.join(', ')})`;
    return url.protocol === 'https:' ? null : `${vendor} endpoints must use https`;
  }

  #privateAllowed(host: string): boolean {
    return this.#allowAll || this.#allowHosts.has(normalizeHost(host));
  }

  /** The first of the host's addresses once every one is checked (unless trusted), or why not. */
  async #addresses(host: string, trusted: boolean, timeoutMs: number): Promise<{ address: string; family: 4 | 6 } | EgressRefusal> {
    let addresses: Array<{ address: string; family: number }>;
    if (isIP(host) !== 0) addresses = [{ address: host, family: isIP(host) }];
    else {
      try { addresses = await withTimeout(this.#resolve(host), timeoutMs); } catch { return { reason: `${host} could not be resolved`, retryable: true }; }
    }
    if (addresses.length === 0) return { reason: `${host} could not be resolved`, retryable: true };
    if (!trusted) {
      for (const { address } of addresses) {
        const reason = forbiddenAddressReason(address);
        if (reason) return { reason: isIP(host) === 0 ? `${host} resolves to ${reason}` : reason, retryable: false };
      }
    }
    const first = addresses[0]!;
    return { address: first.address, family: first.family === 6 ? 6 : 4 };
  }
}

/** The URL, or why it may not be used. WHATWG parsing turns decimal, octal and hex IPv4 spellings (2130706433, 0177.0.0.1) into dotted quads. */
function parseUrl(raw: string): URL | string {
  let url: URL;
  try { url = new URL(raw); } catch { return 'not a valid URL'; }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'only http and https URLs are allowed';
  if (url.username || url.password) return 'credentials in the URL are not allowed';
  return url;
}

function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

function normalizeHost(host: string): string {
  return host.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([promise, new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error('DNS timeout')), ms); })])
    .finally(() => clearTimeout(timer));
}
