import { expect } from 'chai';
import { ipRateKey, normalizeIpAddress } from '../../../core/domain/ip-address.ts';

describe('IP address normalisation', () => {
  it('writes IPv4 with leading zeros as the plain dotted quad (decimal, never octal)', () => {
    expect(normalizeIpAddress('203.000.113.007')).to.equal('203.0.113.7');
    expect(normalizeIpAddress(' 010.1.1.1 ')).to.equal('10.1.1.1');
  });

  it('reads IPv4-mapped and IPv4-compatible IPv6 as the IPv4 address', () => {
    expect(normalizeIpAddress('::ffff:203.0.113.7')).to.equal('203.0.113.7');
    expect(normalizeIpAddress('::FFFF:cb00:7107')).to.equal('203.0.113.7');
    expect(normalizeIpAddress('0:0:0:0:0:ffff:203.000.113.007')).to.equal('203.0.113.7');
    expect(normalizeIpAddress('::203.0.113.7')).to.equal('203.0.113.7');
  });

  it('writes IPv6 lowercase and compressed (RFC 5952)', () => {
    expect(normalizeIpAddress('2001:0DB8:0000:0000:0000:0000:0000:0001')).to.equal('2001:db8::1');
    expect(normalizeIpAddress('2001:db8:0:0:1:0:0:1')).to.equal('2001:db8::1:0:0:1');
    expect(normalizeIpAddress('2001:db8:0:1:1:1:1:1')).to.equal('2001:db8:0:1:1:1:1:1');
    expect(normalizeIpAddress('::1')).to.equal('::1');
    expect(normalizeIpAddress('::')).to.equal('::');
    expect(normalizeIpAddress('fe80::')).to.equal('fe80::');
  });

  it('rejects what is not an address', () => {
    for (const bad of ['', '256.1.1.1', '1.2.3', '1.2.3.4.5', '1.2.3.-4', '1..2.3', '0x7f.0.0.1', '1.2.3.4444', '2001:db8::1::2', '1:2:3:4:5:6:7:8:9',
      '1:2:3:4:5:6:7', '12345::', 'fe80::1%eth0', '[::1]', '1.2.3.4::', 'g::1', ':::', '1:2:3:4:5:6:7::8:9']) {
      expect(normalizeIpAddress(bad), bad).to.equal(null);
    }
  });

  it('counts an IPv6 address under its /64 and an IPv4 address under itself', () => {
    expect(ipRateKey('2001:db8:aa:bb:1::7')).to.equal('2001:db8:aa:bb::/64');
    expect(ipRateKey(normalizeIpAddress('2001:db8:aa:bb:ffff:1:2:3')!)).to.equal('2001:db8:aa:bb::/64');
    expect(ipRateKey('203.0.113.7')).to.equal('203.0.113.7');
  });
});
