import { ipAddressBytes, normalizeIpAddress } from './ip-address.ts';

/**
 * Address ranges (CIDR) for API keys' allowed client addresses (docs/security.md). A range is kept
 * in one canonical spelling: the network address as normalizeIpAddress writes it, `/` and the prefix
 * length (`203.0.113.0/24`, `2001:db8::/32`); a bare address is its /32 or /128. An IPv4-mapped IPv6
 * range (`::ffff:10.0.0.0/104`) is the IPv4 range (`10.0.0.0/8`), as the address it would match is
 * normalized to IPv4. Pure; no I/O.
 */

/** At most this many ranges per API key. */
export const MAX_ALLOWED_RANGES = 20;

/** The canonical spelling of a range, or why the text is not one. */
export function parseIpRange(raw: string): { range: string } | { error: string } {
  const text = raw.trim();
  const [address, prefixText, extra] = text.split('/');
  if (extra !== undefined || !address) return { error: `${raw} is not an address range (e.g. 203.0.113.0/24 or 2001:db8::/32)` };
  const normalized = normalizeIpAddress(address);
  if (!normalized) return { error: `${address} is not an IPv4 or IPv6 address` };
  const mapped = address.includes(':') && !normalized.includes(':');
  const bits = normalized.includes(':') ? 128 : 32;
  let prefix = bits;
  if (prefixText !== undefined) {
    if (!/^[0-9]{1,3}$/.test(prefixText)) return { error: `${text}: the prefix length must be a number` };
    prefix = Number(prefixText) - (mapped ? 96 : 0);
    if (prefix < 0 || prefix > bits) return { error: `${text}: the prefix length must be 0 to ${mapped ? 128 : bits}${mapped ? ' (96 or more for an IPv4-mapped range)' : ''}` };
  }
  const bytes = ipAddressBytes(normalized)!;
  const network = maskBytes(bytes, prefix);
  if (network.some((b, i) => b !== bytes[i])) {
    return { error: `${text} has bits set after the first ${prefix}; the range is ${formatNetwork(network)}/${prefix}` };
  }
  return { range: `${normalized}/${prefix}` };
}

/** True when the normalized address lies in one of the canonical ranges. */
export function addressInRanges(normalizedAddress: string, ranges: readonly string[]): boolean {
  const bytes = ipAddressBytes(normalizedAddress);
  if (!bytes) return false;
  return ranges.some((range) => {
    const [network, prefixText] = range.split('/');
    const networkBytes = ipAddressBytes(network!);
    if (!networkBytes || networkBytes.length !== bytes.length) return false;
    const masked = maskBytes(bytes, Number(prefixText));
    return masked.every((b, i) => b === networkBytes[i]);
  });
}

function maskBytes(bytes: readonly number[], prefix: number): number[] {
  return bytes.map((b, i) => {
    const keep = Math.max(0, Math.min(8, prefix - i * 8));
    return b & ((0xff << (8 - keep)) & 0xff);
  });
}

function formatNetwork(bytes: readonly number[]): string {
  if (bytes.length === 4) return bytes.join('.');
  const groups = Array.from({ length: 8 }, (_, i) => ((bytes[i * 2]! << 8) | bytes[i * 2 + 1]!).toString(16));
  return normalizeIpAddress(groups.join(':'))!;
}
