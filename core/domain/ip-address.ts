/**
 * Client IP addresses in one canonical spelling, so a rate limit cannot be dodged by writing the same
 * address differently (docs/verify.md, docs/permissions.md): `203.000.113.007` and `::ffff:203.0.113.7`
 * are `203.0.113.7`; IPv6 is lowercase, fully compressed (RFC 5952). Pure; no I/O.
 */

/** The canonical form of an IPv4 or IPv6 address, or null when the text is not one. */
export function normalizeIpAddress(raw: string): string | null {
  const text = raw.trim();
  if (text.length === 0 || text.length > 64) return null;
  if (!text.includes(':')) {
    const v4 = parseIpv4(text);
    return v4 ? v4.join('.') : null;
  }
  const groups = parseIpv6(text);
  if (!groups) return null;
  // IPv4-mapped (::ffff:a.b.c.d) and the deprecated IPv4-compatible form are the IPv4 address itself.
  if (groups.slice(0, 5).every((g) => g === 0) && (groups[5] === 0xffff || (groups[5] === 0 && groups[6] !== 0))) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  }
  return formatIpv6(groups);
}

/**
 * The key a per-address limit counts under: an IPv4 address itself; for IPv6 its /64 network, which
 * one subscriber usually holds whole (rotating addresses inside it must count as one client).
 */
export function ipRateKey(normalized: string): string {
  if (!normalized.includes(':')) return normalized;
  const groups = parseIpv6(normalized)!;
  return `${formatIpv6([...groups.slice(0, 4), 0, 0, 0, 0])}/64`;
}

/** Decimal dotted quad; leading zeros are read as decimal (`007` is 7), never octal. */
function parseIpv4(text: string): number[] | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  const octets = parts.map((p) => (/^[0-9]{1,3}$/.test(p) ? Number(p) : NaN));
  return octets.every((o) => Number.isInteger(o) && o <= 255) ? octets : null;
}

function parseIpv6(text: string): number[] | null {
  if (!/^[0-9a-fA-F:.]+$/.test(text)) return null;
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const side = (part: string): number[] | null => {
    if (part === '') return [];
    const out: number[] = [];
    const pieces = part.split(':');
    for (const [i, piece] of pieces.entries()) {
      if (piece.includes('.')) {
        const v4 = i === pieces.length - 1 ? parseIpv4(piece) : null;
        if (!v4) return null;
        out.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
      } else if (/^[0-9a-fA-F]{1,4}$/.test(piece)) {
        out.push(parseInt(piece, 16));
      } else {
        return null;
      }
    }
    return out;
  };
  const head = side(halves[0]!);
  const tail = halves.length === 2 ? side(halves[1]!) : [];
  if (!head || !tail) return null;
  // An embedded IPv4 only at the very end of the address.
  if (halves.length === 2 && halves[0]!.includes('.')) return null;
  if (halves.length === 1) return head.length === 8 ? head : null;
  const missing = 8 - head.length - tail.length;
  return missing >= 1 ? [...head, ...new Array<number>(missing).fill(0), ...tail] : null;
}

/** RFC 5952: lowercase, no leading zeros, the longest run (2+) of zero groups as `::`. */
function formatIpv6(groups: number[]): string {
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) { i += 1; continue; }
    let j = i;
    while (j < 8 && groups[j] === 0) j += 1;
    if (j - i > bestLength) { bestStart = i; bestLength = j - i; }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}

/** The bits of a normalized address (normalizeIpAddress's output): 32 for IPv4, 128 for IPv6, as bytes. */
export function ipAddressBytes(normalized: string): number[] | null {
  if (!normalized.includes(':')) return parseIpv4(normalized);
  const groups = parseIpv6(normalized);
  return groups ? groups.flatMap((g) => [g >> 8, g & 0xff]) : null;
}
