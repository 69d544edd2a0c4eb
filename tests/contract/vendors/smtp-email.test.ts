import { expect } from 'chai';
import { htmlToText, SmtpEmailProvider, type SmtpEmailOptions } from '../../../adapters/providers/smtp-email.ts';
import type { OutboundMessage } from '../../../core/ports/channel-provider.ts';
import { startSmtpSink, type SmtpSink } from '../../support/fake-vendors/smtp-sink.ts';

const HTML = '<h1>Receipt</h1><p>Hello Ama &amp; Kofi,</p><p>We received GH₵ 50.00.<br>Ref: <b>A12345</b></p>'
  + '<ul><li>Item one</li><li>Item two</li></ul><p><a href="https://nkra.example/r/A12345">View receipt</a></p>';

function message(overrides: Partial<OutboundMessage> = {}): OutboundMessage {
  return {
    messageId: 'msg_mail_1', internalMessageId: 'int-mail-1', organizationId: 'org-1', channel: 'EMAIL',
    to: 'ama@example.com', subject: 'Receipt — GH₵ 50.00', body: HTML, senderId: null, ...overrides,
  };
}

describe('Contract: SMTP email adapter against a local SMTP sink', () => {
  let sink: SmtpSink;
  const opened: SmtpEmailProvider[] = [];
  before(async () => { sink = await startSmtpSink(); });
  after(async () => { await sink.close(); });
  beforeEach(() => { sink.received.length = 0; sink.logins.length = 0; });
  afterEach(() => { for (const p of opened.splice(0)) p.close(); });

  const provider = (overrides: Partial<SmtpEmailOptions> = {}) => {
    const p = new SmtpEmailProvider({
      host: sink.host, port: sink.port, requireTLS: false, credentials: { user: sink.user, pass: sink.pass },
      from: '"Nkra" <no-reply@nkra.example>', timeoutMs: 2_000, ...overrides,
    });
    opened.push(p);
    return p;
  };

  it('sends the RFC 8058 unsubscribe headers a marketing email carries (docs/consent.md)', async () => {
    const url = 'https://nkra.example/u/AbCdEfGhIjKlMnOp';
    const result = await provider().send(message({ headers: { 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } }));
    expect(result.accepted).to.equal(true);
    expect(sink.received[0]?.headers['list-unsubscribe']).to.equal(`<${url}>`);
    expect(sink.received[0]?.headers['list-unsubscribe-post']).to.equal('List-Unsubscribe=One-Click');
  });

  it('logs in and delivers subject, recipient, sender, the HTML body and a text alternative; the id is the Message-ID', async () => {
    const result = await provider().send(message());
    expect(result.accepted).to.equal(true);
    const [mail] = sink.received;
    expect(sink.logins).to.deep.equal([{ user: sink.user, ok: true }]);
    expect(mail?.mailFrom).to.equal('no-reply@nkra.example');
    expect(mail?.rcptTo).to.deep.equal(['ama@example.com']);
    expect(mail?.subject).to.equal('Receipt — GH₵ 50.00');
    expect(mail?.headers['from']).to.equal('Nkra <no-reply@nkra.example>');
    expect(mail?.headers['x-nkra-message-id']).to.equal('msg_mail_1');
    expect(mail?.html).to.equal(HTML);
    expect(mail?.text).to.equal('Receipt\n\nHello Ama & Kofi,\n\nWe received GH₵ 50.00.\nRef: A12345\n\n- Item one\n- Item two\n\nView receipt (https://nkra.example/r/A12345)');
    if (result.accepted) expect(result.providerMessageId).to.equal(mail?.headers['message-id']);
  });

  it('derives plain text from HTML: scripts and styles dropped, entities decoded, escaped variables shown as typed', () => {
    const html = '<html><head><style>p{color:red}</style><title>x</title></head><body><p>Hi &lt;script&gt; &#8373;5 &#x41;</p>'
      + '<script>alert(1)</script><table><tr><td>A</td><td>B</td></tr></table><a href="https://x.example">https://x.example</a></body></html>';
    expect(htmlToText(html)).to.equal('Hi <script> ₵5 A\n\nA B\n\nhttps://x.example');
  });

  it('maps a 4xx refusal to a retryable failure (421 as VENDOR_UNAVAILABLE, others TEMPORARY_FAILURE)', async () => {
    sink.script({ kind: 'reject', stage: 'rcpt', code: 450, message: 'Mailbox busy, try later' });
    sink.script({ kind: 'reject', stage: 'mail', code: 421, message: 'Service shutting down' });
    const email = provider({ pool: false });
    const busy = await email.send(message());
    const down = await email.send(message());
    expect(busy).to.deep.include({ accepted: false, retryable: true, errorCode: 'TEMPORARY_FAILURE' });
    if (!busy.accepted) expect(busy.errorMessage).to.contain('450').and.contain('Mailbox busy');
    expect(down).to.deep.include({ accepted: false, retryable: true, errorCode: 'VENDOR_UNAVAILABLE' });
    expect(sink.received).to.have.length(0);
  });

  it('maps a 5xx refusal to a permanent failure: INVALID_ADDRESS at RCPT TO, VENDOR_REJECTED after DATA', async () => {
    sink.script({ kind: 'reject', stage: 'rcpt', code: 550, message: '5.1.1 User unknown' });
    sink.script({ kind: 'reject', stage: 'data', code: 554, message: '5.7.1 Message rejected as spam' });
    const email = provider();
    expect(await email.send(message())).to.deep.include({ accepted: false, retryable: false, errorCode: 'INVALID_ADDRESS' });
    const spam = await email.send(message());
    expect(spam).to.deep.include({ accepted: false, retryable: false, errorCode: 'VENDOR_REJECTED' });
    if (!spam.accepted) expect(spam.errorMessage).to.contain('554');
    expect(sink.received).to.have.length(0);
  });

  it('fails a refused login with a permanent AUTH_FAILED that never contains the password', async () => {
    const result = await provider({ credentials: { user: sink.user, pass: 'wrong-pass-s3cret' } }).send(message());
    expect(result).to.deep.include({ accepted: false, retryable: false, errorCode: 'AUTH_FAILED' });
    expect(JSON.stringify(result)).to.not.contain('wrong-pass-s3cret');
    expect(sink.logins).to.deep.equal([{ user: sink.user, ok: false }]);
  });

  it('gives up on a slow greeting or a slow answer to DATA with a retryable TIMEOUT', async () => {
    sink.script({ kind: 'slow-greeting', delayMs: 1_000 });
    const greeting = await provider({ timeoutMs: 200, pool: false }).send(message());
    expect(greeting).to.deep.include({ accepted: false, retryable: true, errorCode: 'TIMEOUT' });
    sink.script({ kind: 'slow-data', delayMs: 1_000 });
    const data = await provider({ timeoutMs: 200, pool: false }).send(message());
    expect(data).to.deep.include({ accepted: false, retryable: true, errorCode: 'TIMEOUT' });
  });

  it('insists on STARTTLS by default: a server without it fails permanently with TLS_UNAVAILABLE, nothing sent', async () => {
    const email = new SmtpEmailProvider({ host: sink.host, port: sink.port, credentials: { user: sink.user, pass: sink.pass }, from: 'no-reply@nkra.example', pool: false });
    opened.push(email);
    const result = await email.send(message());
    expect(result).to.deep.include({ accepted: false, retryable: false, errorCode: 'TLS_UNAVAILABLE' });
    expect(sink.received).to.have.length(0);
  });

  it('reports a closed port as a retryable VENDOR_UNAVAILABLE', async () => {
    const result = await provider({ port: 9, pool: false }).send(message());
    expect(result).to.deep.include({ accepted: false, retryable: true, errorCode: 'VENDOR_UNAVAILABLE' });
  });

  it('is healthy when the server greets and accepts the login, and not with a bad password or no server', async () => {
    const ok = await provider().checkHealth();
    expect(ok).to.deep.include({ ok: true, balance: null });
    const badLogin = await provider({ credentials: { user: sink.user, pass: 'nope-s3cret' } }).checkHealth();
    expect(badLogin.ok).to.equal(false);
    expect(badLogin.detail).to.contain('login refused').and.not.contain('nope-s3cret');
    const down = await provider({ port: 9 }).checkHealth();
    expect(down.ok).to.equal(false);
  });
});
