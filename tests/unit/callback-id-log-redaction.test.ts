import { Writable } from 'node:stream';
import { expect } from 'chai';
import Koa from 'koa';
import { createLogger } from '../../hosts/logger.ts';
import { requestContext } from '../../hosts/api/middleware/request-context.ts';

describe('request logs', () => {
  it('never contain a provider\'s callback id (the secret of its callback URL)', async () => {
    const lines: string[] = [];
    const sink = new Writable({ write(chunk, _enc, done) { lines.push(String(chunk)); done(); } });
    const app = new Koa();
    app.use(requestContext(createLogger('info', sink), { observe: () => undefined } as never));
    app.use((ctx) => { ctx.body = 'ok'; });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as { port: number };
    const secret = '0123456789abcdef0123456789abcdef';
    try {
      expect((await fetch(`http://127.0.0.1:${port}/providers/callbacks/africas-talking-sms/${secret}?token=t`, { method: 'POST', body: 'id=1' })).status).to.equal(200);
    } finally {
      server.close();
    }
    const out = lines.join('');
    expect(out).to.not.include(secret);
    expect(out).to.include('/providers/callbacks/africas-talking-sms/[redacted]');
  });
});
