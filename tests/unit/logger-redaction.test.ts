import { Writable } from 'node:stream';
import { expect } from 'chai';
import { createLogger } from '../../hosts/logger.ts';

describe('structured logs', () => {
  it('redact passwords, tokens, API keys and authorization headers', async () => {
    const lines: string[] = [];
    const sink = new Writable({ write(chunk, _enc, done) { lines.push(String(chunk)); done(); } });
    const logger = createLogger('info', sink);
    logger.info({ password: 'hunter2', body: { password: 'pw2', token: 'reset-token' }, apiKey: 'nk_live_secret',
      req: { headers: { authorization: 'Bearer jwt-value', 'x-api-key': 'nk_test_value' } } }, 'event');
    const out = lines.join('');
    for (const secret of ['hunter2', 'pw2', 'reset-token', 'nk_live_secret', 'jwt-value', 'nk_test_value']) expect(out).to.not.include(secret);
    expect(JSON.parse(out).msg).to.equal('event');
  });

  it('redact an SSO client secret and the sealed sign-in cookie', () => {
    const lines: string[] = [];
    const sink = new Writable({ write(chunk, _enc, done) { lines.push(String(chunk)); done(); } });
    createLogger('info', sink).info({ body: { clientSecret: 'idp-secret-1' }, client_secret: 'idp-secret-2', res: { headers: { 'set-cookie': 'nkra_sso=sealed-state' } } }, 'sso');
    const out = lines.join('');
    for (const secret of ['idp-secret-1', 'idp-secret-2', 'sealed-state']) expect(out).to.not.include(secret);
  });
});
