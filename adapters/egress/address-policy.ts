import { BlockList, isIP } from 'node:net';

/**
 * Addresses webhooks may never reach (SSRF): unspecified, private, loopback, link-local (including the
 * cloud metadata address 169.254.169.254), CGNAT 100.64/10, benchmarking, documentation, multicast and
 * reserved IPv4; the IPv6 equivalents, IPv4-mapped and -translated IPv6 (::ffff:0:0/96, 64:ff9b::/96),
 * 6to4, ULA fc00::/7 and link-local fe80::/10.
 */
const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.0.0.0', 24],
  ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24],
  ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) blocked.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128], ['::1', 128], ['::', 96], ['64:ff9b::', 96], ['64:ff9b:1::', 48], ['100::', 64], ['2001::', 32], ['2001:db8::', 32],
  ['2002::', 16], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
] as const) blocked.addSubnet(network, prefix, 'ipv6');

/** Kept apart: node's BlockList matches every IPv4 address against ::ffff:0:0/96. */
const mapped = new BlockList();
mapped.addSubnet('::ffff:0:0', 96, 'ipv6');

/** Why `address` (an IP literal) may not receive webhooks, or null when it is a public unicast address. */
export function forbiddenAddressReason(address: string): string | null {
  const family = isIP(address);
  if (family === 0) return `${address} is not an IP address`;
  if (family === 6 && (/^::ffff:/i.test(address) || mapped.check(address, 'ipv6'))) return `${address} is an IPv4-mapped address`;
  return blocked.check(address, family === 4 ? 'ipv4' : 'ipv6') ? `${address} is a private, loopback, link-local or reserved address` : null;
}
