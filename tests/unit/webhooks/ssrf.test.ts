import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { forbiddenAddressReason } from '../../../adapters/egress/address-policy.ts';
import { DnsEgressPolicy } from '../../../adapters/egress/dns-egress-policy.ts';
import { HttpWebhookSender } from '../../../adapters/webhooks/http-webhook-sender.ts';
import { startWebhookReceiver } from '../../support/webhook-receiver.ts';

const request = (url: string) => ({ url, body: '{"id":"e1"}', kind: 'contact.opted_out', eventId: 'e1', secret: 'whsec_test', previousSecret: null });

describe('Webhook SSRF protection (HttpWebhookSender)', function () {
  this.timeout(15_000);
  const strict = new HttpWebhookSender({ egress: new DnsEgressPolicy(), timeoutMs: 2_000 });

  const table: Array<[string, RegExp]> = [
    ['http://127.0.0.1/', /127\.0\.0\.1.*private, loopback/],
    ['http://10.0.0.7/', /10\.0\.0\.7/],
    ['http://169.254.169.254/latest/meta-data/', /169\.254\.169\.254/],
    ['http://[::1]/', /::1/],
    ['http://[::ffff:127.0.0.1]/', /IPv4-mapped/],
    ['http://2130706433/', /127\.0\.0\.1/], // decimal spelling of 127.0.0.1
    ['http://0177.0.0.1/', /127\.0\.0\.1/], // octal spelling
    ['http://0x7f.1/', /127\.0\.0\.1/], // hex, short form
    ['http://localhost/', /localhost resolves to/], // a hostname resolving to loopback
    ['http://100.64.12.1/', /100\.64/], ['http://172.16.0.1/', /172\.16/], ['http://192.168.0.10/', /192\.168/],
    ['http://[fd12:3456::1]/', /fd12/], ['http://[fe80::1]/', /fe80/], ['http://224.0.0.251/', /224/], ['http://[ff02::1]/', /ff02/],
    ['http://0.0.0.0/', /0\.0\.0\.0/], ['http://[64:ff9b::a00:1]/', /64:ff9b/],
    ['ftp://example.com/', /only http and https/], ['http://user:pass@8.8.8.8/', /credentials/],
  ];
  for (const [url, reason] of table) {
    it(`refuses ${url} at registration and at delivery without connecting`, async () => {
      expect(await strict.checkTarget(url)).to.match(reason);
      const result = await strict.post(request(url));
      expect(result).to.include({ ok: false, statusCode: null });
      expect(result.error).to.match(/^refused: /);
    });
  }

  it('accepts public unicast addresses', () => {
    for (const address of ['8.8.8.8', '41.215.160.1', '2606:4700:4700::1111']) expect(forbiddenAddressReason(address)).to.equal(null);
  });

  it('connects to the address it checked, resolving the host once per attempt (no DNS rebinding)', async () => {
    const receiver = await startWebhookReceiver();
    const port = new URL(receiver.url).port;
    let lookups = 0;
    const answers = ['127.0.0.1', '10.9.9.9'];
    // A rebinding DNS: a first answer, then another. Only the first (checked) one may be used.
    const sender = new HttpWebhookSender({ egress: new DnsEgressPolicy({ allowPrivateHosts: ['*'], resolve: async () => [{ address: answers[lookups++] ?? '10.9.9.9', family: 4 }] }), timeoutMs: 2_000 });
    try {
      const result = await sender.post(request(`http://hooks.rebind.test:${port}/x`));
      expect(result).to.include({ ok: true, statusCode: 200 });
      expect(lookups).to.equal(1);
      expect(receiver.received[0]!.headers.host).to.equal(`hooks.rebind.test:${port}`);
      const strictRebind = new HttpWebhookSender({ egress: new DnsEgressPolicy({ resolve: async () => [{ address: '8.8.8.8', family: 4 }, { address: '127.0.0.1', family: 4 }] }) });
      expect(await strictRebind.checkTarget('https://mixed.example/')).to.match(/mixed\.example resolves to 127\.0\.0\.1/);
    } finally {
      await receiver.close();
    }
  });

  it('does not follow a redirect to an internal address', async () => {
    const internal = await startWebhookReceiver();
    const redirector = http.createServer((_req, res) => { res.writeHead(302, { location: internal.url }); res.end(); });
    await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
    try {
      const lenient = new HttpWebhookSender({ egress: new DnsEgressPolicy({ allowPrivateHosts: ['127.0.0.1'] }), timeoutMs: 2_000 }); // to reach the local redirector at all
      const result = await lenient.post(request(`http://127.0.0.1:${(redirector.address() as AddressInfo).port}/`));
      expect(result).to.include({ ok: false, statusCode: 302, error: 'HTTP 302' });
      expect(internal.received).to.have.length(0);
    } finally {
      redirector.close(); await internal.close();
    }
  });

  it('reads at most a small part of a huge answer and gives up after the timeout', async () => {
    let bytesWritten = 0;
    const server = http.createServer((req, res) => {
      if (req.url === '/slow') return; // never answers
      res.writeHead(200);
      const chunk = Buffer.alloc(64 * 1024, 97);
      const pump = () => { while (bytesWritten < 50 * 1024 * 1024 && res.write(chunk)) bytesWritten += chunk.length; if (bytesWritten < 50 * 1024 * 1024) res.once('drain', pump); else res.end(); };
      pump();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const sender = new HttpWebhookSender({ egress: new DnsEgressPolicy({ allowPrivateHosts: ['127.0.0.1'] }), timeoutMs: 300 });
      const big = await sender.post(request(`${base}/big`));
      expect(big).to.include({ ok: true, statusCode: 200 });
      expect(bytesWritten).to.be.below(10 * 1024 * 1024);
      const started = Date.now();
      const slow = await sender.post(request(`${base}/slow`));
      expect(slow).to.include({ ok: false, statusCode: null });
      expect(slow.error).to.match(/timed out after 300 ms/);
      expect(Date.now() - started).to.be.below(2_000);
    } finally {
      server.closeAllConnections(); server.close();
    }
  });
});
