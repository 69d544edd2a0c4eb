import { expect } from 'chai';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { forbiddenAddressReason } from '../../../adapters/egress/address-policy.ts';
import { DnsEgressPolicy } from '../../../adapters/egress/dns-egress-policy.ts';
import { withTenantEgress } from '../../../adapters/egress/tenant-egress-scope.ts';
import { genericMessage, TenantVendorAdapter } from '../../../adapters/egress/tenant-vendor-adapter.ts';
import { callVendor } from '../../../adapters/providers/ghana-sms-http.ts';
import { Http2VendorSession } from '../../../adapters/providers/http2-vendor-session.ts';
import { tenantEndpoints, VENDOR_HOSTS } from '../../../core/domain/vendor-endpoints.ts';
import type { VendorAdapter } from '../../../core/ports/vendor-adapter.ts';

const publicDns = async () => [{ address: '142.250.184.10', family: 4 }];

describe('Egress policy (docs/security.md)', function () {
  this.timeout(10_000);

  describe('address classifier', () => {
    const forbidden = [
      '0.0.0.0', '0.1.2.3', '10.0.0.1', '10.255.255.255', '100.64.0.1', '100.127.255.254', '127.0.0.1', '127.8.9.10', '169.254.169.254', '169.254.0.1',
      '172.16.0.1', '172.31.255.255', '192.0.0.8', '192.0.2.1', '192.168.1.1', '198.18.0.1', '198.51.100.1', '203.0.113.7', '224.0.0.251', '239.255.255.250',
      '240.0.0.1', '255.255.255.255',
      '::', '::1', '::127.0.0.1', '::ffff:127.0.0.1', '::ffff:7f00:1', '0:0:0:0:0:ffff:a9fe:a9fe', '::ffff:8.8.8.8', '64:ff9b::7f00:1', '64:ff9b::a9fe:a9fe',
      '64:ff9b:1::1', '100::1', '2001::1', '2001:db8::1', '2002:7f00:1::1', 'fc00::1', 'fd12:3456::1', 'fe80::1', 'febf::1', 'fec0::1', 'ff02::1',
    ];
    for (const address of forbidden) it(`refuses ${address}`, () => expect(forbiddenAddressReason(address)).to.be.a('string'));
    it('accepts public unicast addresses', () => {
      for (const address of ['8.8.8.8', '1.1.1.1', '41.215.160.1', '100.63.255.255', '100.128.0.1', '172.32.0.1', '2606:4700:4700::1111', '2a00:1450:4009::200e']) {
        expect(forbiddenAddressReason(address), address).to.equal(null);
      }
    });
    it('refuses what is not an IP address', () => expect(forbiddenAddressReason('localhost')).to.match(/not an IP address/));
  });

  describe('own vendor accounts: the vendor\'s own hosts only', () => {
    const policy = new DnsEgressPolicy({ allowPrivateHosts: ['127.0.0.1', 'localhost', '::1'], vendorBaseUrls: { 'expo-push': 'http://127.0.0.1:4555' }, resolve: publicDns });

    it('refuses any other host, odd IPv4 spellings included, whatever EGRESS_ALLOW_PRIVATE_HOSTS lists', () => {
      for (const url of ['http://127.0.0.1/token', 'http://localhost/token', 'http://169.254.169.254/token', 'http://[::1]/token', 'http://[::ffff:127.0.0.1]/token',
        'http://2130706433/token', 'http://0177.0.0.1/token', 'http://0x7f.1/token', 'https://oauth2.googleapis.com.evil.test/token', 'https://evil.test/oauth2.googleapis.com']) {
        expect(policy.checkVendorUrl('fcm-push', url), url).to.match(/is not a fcm-push host/);
      }
      expect(policy.checkVendorUrl('fcm-push', 'http://oauth2.googleapis.com/token')).to.match(/must use https/);
      expect(policy.checkVendorUrl('fcm-push', 'https://user:pw@oauth2.googleapis.com/token')).to.match(/credentials in the URL/);
      expect(policy.checkVendorUrl('fcm-push', 'file:///etc/passwd')).to.match(/only http and https/);
    });

    it('accepts the vendor\'s hosts, and exactly the operator\'s VENDOR_BASE_URLS origin', () => {
      expect(policy.checkVendorUrl('fcm-push', 'https://oauth2.googleapis.com/token')).to.equal(null);
      expect(policy.checkVendorUrl('fcm-push', 'https://OAUTH2.googleapis.com:443/token')).to.equal(null);
      expect(policy.checkVendorUrl('expo-push', 'http://127.0.0.1:4555/--/api/v2/push/send')).to.equal(null);
      expect(policy.checkVendorUrl('expo-push', 'http://127.0.0.1:4556/')).to.match(/not a expo-push host/);
      expect(policy.checkVendorUrl('fcm-push', 'http://127.0.0.1:4555/token')).to.match(/not a fcm-push host/);
    });

    it('refuses a vendor host that resolves to an internal address, at every connection (no DNS trust)', async () => {
      const rebound = new DnsEgressPolicy({ resolve: async () => [{ address: '142.250.184.10', family: 4 }, { address: '169.254.169.254', family: 4 }] });
      const target = await rebound.target('https://oauth2.googleapis.com/token', 'fcm-push');
      expect(target).to.deep.include({ retryable: false });
      expect((target as { reason: string }).reason).to.match(/oauth2\.googleapis\.com resolves to 169\.254\.169\.254/);
    });

    it('lists each tenant vendor\'s default endpoint host, and reads FCM\'s token_uri as the only URL inside credentials', () => {
      expect(VENDOR_HOSTS['fcm-push']).to.include.members(['fcm.googleapis.com', 'oauth2.googleapis.com']);
      expect(VENDOR_HOSTS['apns-push']).to.deep.equal(['api.push.apple.com', 'api.sandbox.push.apple.com']);
      expect(tenantEndpoints('fcm-push', { serviceAccountJson: JSON.stringify({ token_uri: 'http://10.0.0.1/' }) }))
        .to.deep.equal([{ field: 'credentials', path: 'serviceAccountJson.token_uri', url: 'http://10.0.0.1/' }]);
      expect(tenantEndpoints('fcm-push', { serviceAccountJson: '{not json' })).to.deep.equal([]);
      expect(tenantEndpoints('arkesel-sms', { apiKey: 'http://10.0.0.1/' })).to.deep.equal([]);
    });
  });

  describe('connections', () => {
    let connections = 0;
    let server: net.Server;
    let port = 0;
    before(async () => {
      server = net.createServer((socket) => { connections += 1; socket.destroy(); });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as AddressInfo).port;
    });
    after(() => server.close());

    it('makes no connection for a refused own-account call (fetch and HTTP/2 transports), and fails permanently', async () => {
      const policy = new DnsEgressPolicy();
      const call = await withTenantEgress({ policy, vendor: 'fcm-push' }, () => callVendor('FCM OAuth', new URL(`http://127.0.0.1:${port}/token`), { method: 'POST', headers: {} }, 2_000));
      expect(call.ok).to.equal(false);
      expect(!call.ok && call.failure).to.include({ retryable: false, errorCode: 'ENDPOINT_REFUSED' });
      const session = new Http2VendorSession(`http://127.0.0.1:${port}`, 'APNs');
      const h2 = await withTenantEgress({ policy, vendor: 'apns-push' }, () => session.request({ ':method': 'POST', ':path': '/3/device/x' }, '{}', 2_000));
      expect(!h2.ok && h2.failure).to.include({ retryable: false, errorCode: 'ENDPOINT_REFUSED' });
      await session.close();
      // APNs' own host answering DNS with the metadata address: refused by the HTTP/2 session's lookup itself.
      const rebinding = new DnsEgressPolicy({ resolve: async () => [{ address: '169.254.169.254', family: 4 }] });
      const apns = new Http2VendorSession('https://api.push.apple.com', 'APNs');
      const refused = await withTenantEgress({ policy: rebinding, vendor: 'apns-push' }, () => apns.request({ ':method': 'POST', ':path': '/3/device/x' }, '{}', 2_000));
      expect(!refused.ok && refused.failure).to.include({ retryable: false, errorCode: 'ENDPOINT_REFUSED' });
      await apns.close();
      expect(connections).to.equal(0);
    });

    it('does not follow a redirect, even from a trusted origin', async () => {
      const redirector = http.createServer((_req, res) => { res.writeHead(307, { location: `http://127.0.0.1:${port}/` }); res.end(); });
      await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
      const origin = `http://127.0.0.1:${(redirector.address() as AddressInfo).port}`;
      try {
        const policy = new DnsEgressPolicy({ vendorBaseUrls: { 'expo-push': origin } });
        const call = await withTenantEgress({ policy, vendor: 'expo-push' }, () => callVendor('Expo', new URL(`${origin}/--/api/v2/push/send`), { method: 'POST', headers: {}, body: '[]' }, 2_000));
        expect(call.ok && call.answer.status).to.equal(307);
        expect(connections).to.equal(0);
      } finally {
        redirector.close();
      }
    });
  });

  describe('what an own account\'s owner is shown', () => {
    const failing: VendorAdapter = {
      vendor: 'fcm-push', channel: 'PUSH', name: 'my-fcm',
      send: async () => ({ accepted: false, retryable: false, errorCode: 'AUTH_FAILED', errorMessage: 'FCM OAuth: auth failed (HTTP 400): invalid_grant: ami-id i-0abc role=admin' }),
      checkHealth: async () => ({ ok: false, latencyMs: 3, detail: 'FCM OAuth: vendor unavailable (HTTP 503): <html>internal dashboard</html>', balance: null }),
    };

    it('is our classification and the status class, never the remote text', async () => {
      const adapter = new TenantVendorAdapter(failing, { policy: new DnsEgressPolicy() });
      const message = { messageId: 'm', internalMessageId: 'm', organizationId: 'o', channel: 'PUSH' as const, to: 't', subject: null, body: 'b', senderId: null };
      expect(await adapter.send(message)).to.deep.equal({ accepted: false, retryable: false, errorCode: 'AUTH_FAILED', errorMessage: 'my-fcm: auth failed (HTTP 4xx)' });
      expect((await adapter.checkHealth()).detail).to.equal('my-fcm: health check failed (HTTP 5xx)');
      expect(genericMessage('x', 'odd code <b>', 'x')).to.equal('x: vendor error');
    });
  });
});
