import { Writable } from 'node:stream';
import { expect } from 'chai';
import { createApp } from '../../hosts/api/app.ts';
import type { Authenticators } from '../../hosts/api/middleware/authenticate.ts';
import { loggedPath } from '../../hosts/api/middleware/request-context.ts';
import { HttpMetrics } from '../../hosts/api/metrics.ts';
import { listen } from '../../hosts/api/server.ts';
import { createLogger } from '../../hosts/logger.ts';

describe('request logs never carry tokens from the path (issue 28)', () => {
  it('fills a matched route template but redacts credential parameters', () => {
    expect(loggedPath('/u/AbCdEf0123456789', '/u/:token', { token: 'AbCdEf0123456789' })).to.equal('/u/[redacted]');
    expect(loggedPath('/contacts/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b', '/contacts/:id', { id: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b' }))
      .to.equal('/contacts/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b');
    expect(loggedPath('/x/k', '/providers/callbacks/:vendor/:callbackKey', { vendor: 'twilio', callbackKey: 'k' })).to.equal('/providers/callbacks/twilio/[redacted]');
    expect(loggedPath('/x/k', '/providers/callbacks/:vendor/:callbackId', { vendor: 'twilio-sms', callbackId: 'k' })).to.equal('/providers/callbacks/twilio-sms/[redacted]');
  });

  it('redacts long non-UUID segments of an unmatched path', () => {
    expect(loggedPath('/u/AbCdEf0123456789/extra', undefined, undefined)).to.equal('/u/[redacted]/extra');
    expect(loggedPath('/nope/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b', undefined, undefined)).to.equal('/nope/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b');
  });

  it('writes the redacted path in the request line of a real app', async () => {
    const lines: string[] = [];
    const sink = new Writable({ write(chunk, _enc, done) { lines.push(String(chunk)); done(); } });
    const logger = createLogger('info', sink);
    const app = createApp({
      routes: [{ method: 'GET', path: '/u/:token', tag: 'Test', summary: 'test', auth: 'none', custom: true, responses: { 200: 'html' },
        handler: async ({ koa }) => { koa.type = 'text/html'; koa.body = '<p>ok</p>'; } }],
      auth: {} as Authenticators, logger, metrics: new HttpMetrics(null), bodyLimitBytes: 1024,
    });
    const server = await listen(app, 0, '127.0.0.1', logger);
    try {
      const secretToken = 'SeCrEtToKeN12345';
      expect((await fetch(`http://127.0.0.1:${server.port}/u/${secretToken}?also=${secretToken}`)).status).to.equal(200);
      expect((await fetch(`http://127.0.0.1:${server.port}/u/${secretToken}/more`)).status).to.equal(404);
      const out = lines.join('');
      expect(out).to.include('/u/[redacted]');
      expect(out).to.not.include(secretToken);
    } finally {
      await server.close(1_000);
    }
  });
});
