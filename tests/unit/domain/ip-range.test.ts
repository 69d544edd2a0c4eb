import { expect } from 'chai';
import { apiKeyAllowsAddress } from '../../../core/domain/api-key.ts';
import { addressInRanges, parseIpRange } from '../../../core/domain/ip-range.ts';

describe('domain: address ranges (API keys\' allowed client addresses)', () => {
  it('writes IPv4 and IPv6 ranges in one canonical spelling', () => {
    expect(parseIpRange(' 203.000.113.0/24 ')).to.deep.equal({ range: '203.0.113.0/24' });
    expect(parseIpRange('203.0.113.7')).to.deep.equal({ range: '203.0.113.7/32' });
    expect(parseIpRange('2001:0DB8:0000::/32')).to.deep.equal({ range: '2001:db8::/32' });
    expect(parseIpRange('2001:db8::1')).to.deep.equal({ range: '2001:db8::1/128' });
    expect(parseIpRange('::ffff:10.0.0.0/104')).to.deep.equal({ range: '10.0.0.0/8' });
    expect(parseIpRange('0.0.0.0/0')).to.deep.equal({ range: '0.0.0.0/0' });
    expect(parseIpRange('::/0')).to.deep.equal({ range: '::/0' });
  });

  it('refuses what is not a range, naming the network when host bits are set', () => {
    expect(parseIpRange('10.1.2.3/8')).to.deep.equal({ error: '10.1.2.3/8 has bits set after the first 8; the range is 10.0.0.0/8' });
    expect(parseIpRange('2001:db8::1/32')).to.have.property('error').that.match(/the range is 2001:db8::\/32$/);
    for (const bad of ['', '/8', 'example.com', '10.0.0.0/33', '10.0.0.0/-1', '10.0.0.0/8/8', '10.0.0.0/', '::ffff:10.0.0.0/90', '2001:db8::/129', '10.0.0.256/32']) {
      expect(parseIpRange(bad), bad).to.have.property('error');
    }
  });

  it('matches normalized addresses of the same family only', () => {
    expect(addressInRanges('10.200.0.1', ['10.0.0.0/8'])).to.equal(true);
    expect(addressInRanges('11.0.0.1', ['10.0.0.0/8'])).to.equal(false);
    expect(addressInRanges('127.0.0.5', ['127.0.0.4/31'])).to.equal(true);
    expect(addressInRanges('127.0.0.6', ['127.0.0.4/31'])).to.equal(false);
    expect(addressInRanges('2001:db8:ffff::1', ['2001:db8::/32'])).to.equal(true);
    expect(addressInRanges('2001:db9::1', ['2001:db8::/32'])).to.equal(false);
    expect(addressInRanges('10.0.0.1', ['::/0'])).to.equal(false);
    expect(addressInRanges('2001:db8::1', ['0.0.0.0/0'])).to.equal(false);
    expect(addressInRanges('2001:db8::1', ['0.0.0.0/0', '::/0'])).to.equal(true);
  });

  it('lets a key without ranges be used from anywhere, and one with ranges only from inside them (IPv4-mapped spelling included)', () => {
    expect(apiKeyAllowsAddress({ allowedCidrs: [] }, null)).to.equal(true);
    expect(apiKeyAllowsAddress({ allowedCidrs: ['203.0.113.0/24'] }, '::ffff:203.0.113.9')).to.equal(true);
    expect(apiKeyAllowsAddress({ allowedCidrs: ['203.0.113.0/24'] }, '203.0.114.1')).to.equal(false);
    expect(apiKeyAllowsAddress({ allowedCidrs: ['203.0.113.0/24'] }, null)).to.equal(false);
    expect(apiKeyAllowsAddress({ allowedCidrs: ['2001:db8::/32'] }, '2001:DB8:0::7')).to.equal(true);
  });
});
