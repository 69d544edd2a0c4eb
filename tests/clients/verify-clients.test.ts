import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { freePort } from '../support/processes.ts';
import { ROOT } from './real-api.ts';

type ClientModule = typeof import('../../clients/typescript/src/index.ts');

const run = promisify(execFile);
const TS_DIR = path.join(ROOT, 'clients/typescript');

interface Seen { method: string; url: string; body: Record<string, unknown> | null; apiKey: string | undefined }
interface Reply { status: number; body: unknown; headers?: Record<string, string> }

/** A stand-in for the Verify API answering the shapes of docs/verify.md; each test queues its replies. */
async function startStub(): Promise<{ url: string; seen: Seen[]; replies: Reply[]; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const replies: Reply[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => { raw += String(d); });
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', body: raw ? JSON.parse(raw) as Record<string, unknown> : null, apiKey: req.headers['x-api-key'] as string | undefined });
      const reply = replies.shift() ?? { status: 500, body: { success: false, error: { code: 'INTERNAL', message: 'no reply queued' } } };
      res.writeHead(reply.status, { 'content-type': 'application/json', 'x-request-id': `req-${seen.length}`, ...reply.headers });
      res.end(JSON.stringify(reply.body));
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${port}`, seen, replies, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const verification = (over: Record<string, unknown> = {}) => ({
  id: 'ver_1', to: '+233241234567', country: 'GH', channel: 'SMS', channels: ['SMS'], status: 'PENDING', codeLength: 6,
  expiresAt: '2026-11-25T10:10:00.000Z', sendAttempts: 1, maxSendAttempts: 5, checkAttempts: 0, maxCheckAttempts: 5,
  sends: [{ channel: 'SMS', messageId: 'msg_1', status: 'DELIVERED', createdAt: '2026-11-25T10:00:00.000Z' }],
  createdAt: '2026-11-25T10:00:00.000Z', updatedAt: '2026-11-25T10:00:00.000Z', ...over,
});
const ok = (data: unknown, status = 200): Reply => ({ status, body: { success: true, data } });
const fail = (status: number, code: string, details: Record<string, unknown> = {}, headers: Record<string, string> = {}): Reply =>
  ({ status, body: { success: false, error: { code, message: code, details } }, headers });

describe('TypeScript client: verify methods against a stub of the Verify API', function () {
  this.timeout(60_000);
  let client: ClientModule;
  let outDir: string;
  let stub: Awaited<ReturnType<typeof startStub>>;
  let nkra: InstanceType<ClientModule['NkraClient']>;

  before(async () => {
    // The sources import './x.js', so they are compiled (to a private directory: clients.test.ts builds dist/ at the same time).
    outDir = await mkdtemp(path.join(os.tmpdir(), 'nkra-verify-client-'));
    await run(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', path.join(TS_DIR, 'tsconfig.json'), '--outDir', outDir]);
    client = await import(pathToFileURL(path.join(outDir, 'index.js')).href) as ClientModule;
  });
  after(async () => { await rm(outDir, { recursive: true, force: true }); });
  beforeEach(async () => {
    stub = await startStub();
    nkra = new client.NkraClient({ apiKey: 'nk_test_stub', baseUrl: stub.url, baseDelayMs: 1, maxDelayMs: 5 });
  });
  afterEach(async () => { await stub.close(); });

  it('starts with POST /verify/start, sending every option given and a generated idempotencyKey', async () => {
    stub.replies.push(ok(verification({ channels: ['SMS', 'VOICE'] }), 201));
    const started = await nkra.verify.start({ to: '0241234567', channels: ['SMS', 'VOICE'], countryCode: 'GH', codeLength: 6, expiresInSeconds: 300, fallbackAfterSeconds: 45, locale: 'tw', template: 'Code {{code}}', ipAddress: '203.0.113.9' });
    expect(started).to.deep.include({ id: 'ver_1', status: 'PENDING', channels: ['SMS', 'VOICE'] });
    const [request] = stub.seen;
    expect(request).to.deep.include({ method: 'POST', url: '/verify/start', apiKey: 'nk_test_stub' });
    expect(request!.body).to.deep.include({ to: '0241234567', channels: ['SMS', 'VOICE'], countryCode: 'GH', codeLength: 6, expiresInSeconds: 300, fallbackAfterSeconds: 45, locale: 'tw', template: 'Code {{code}}', ipAddress: '203.0.113.9' });
    expect(request!.body!['idempotencyKey']).to.be.a('string').and.match(/^nkc-/);
  });

  it('retries a start after a 503 with the same idempotencyKey, and a new call gets a new key', async () => {
    stub.replies.push(fail(503, 'SERVICE_UNAVAILABLE'), ok(verification(), 201), ok(verification({ id: 'ver_2' }), 201));
    expect((await nkra.verify.start({ to: '+233241234567' })).id).to.equal('ver_1');
    expect((await nkra.verify.start({ to: '+233241234567' })).id).to.equal('ver_2');
    const keys = stub.seen.map((s) => s.body!['idempotencyKey']);
    expect(keys[0]).to.equal(keys[1]);
    expect(keys[2]).to.not.equal(keys[0]);
  });

  it('keeps the caller\'s idempotencyKey', async () => {
    stub.replies.push(ok(verification(), 201));
    await nkra.verify.start({ to: '+233241234567', channel: 'WHATSAPP', idempotencyKey: 'signup-42' });
    expect(stub.seen[0]!.body).to.deep.equal({ to: '+233241234567', channel: 'WHATSAPP', idempotencyKey: 'signup-42' });
  });

  it('checks by id or by recipient and answers a wrong code as a result, not an error', async () => {
    stub.replies.push(ok({ id: 'ver_1', status: 'PENDING', valid: false, remainingAttempts: 4 }), ok({ id: 'ver_1', status: 'APPROVED', valid: true, remainingAttempts: 3 }));
    expect(await nkra.verify.check({ id: 'ver_1', code: '000000' })).to.deep.equal({ id: 'ver_1', status: 'PENDING', valid: false, remainingAttempts: 4 });
    expect(await nkra.verify.check({ to: '0241234567', countryCode: 'GH', code: '482913' })).to.deep.include({ valid: true, status: 'APPROVED' });
    expect(stub.seen.map((s) => [s.method, s.url, s.body])).to.deep.equal([
      ['POST', '/verify/check', { id: 'ver_1', code: '000000' }],
      ['POST', '/verify/check', { to: '0241234567', countryCode: 'GH', code: '482913' }],
    ]);
  });

  it('gets, cancels and resends by id (the id escaped in the path)', async () => {
    stub.replies.push(ok(verification()), ok(verification({ status: 'CANCELED' })), ok(verification({ channel: 'VOICE', sendAttempts: 2 })));
    expect((await nkra.verify.get('ver_1')).sends[0]!.messageId).to.equal('msg_1');
    expect((await nkra.verify.cancel('ver/1')).status).to.equal('CANCELED');
    expect((await nkra.verify.resend('ver_1', { channel: 'VOICE' })).channel).to.equal('VOICE');
    expect(stub.seen.map((s) => [s.method, s.url, s.body])).to.deep.equal([
      ['GET', '/verify/ver_1', null],
      ['POST', '/verify/ver%2F1/cancel', {}],
      ['POST', '/verify/ver_1/resend', { channel: 'VOICE' }],
    ]);
  });

  it('surfaces 429 VERIFY_RATE_LIMITED as NkraError with the rule and Retry-After, without waiting an hour', async () => {
    stub.replies.push(fail(429, 'VERIFY_RATE_LIMITED', { rule: 'recipient' }, { 'retry-after': '3600' }));
    const error = await nkra.verify.start({ to: '+233241234567' }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(client.NkraError);
    expect(error).to.deep.include({ code: 'VERIFY_RATE_LIMITED', status: 429, retryAfterMs: 3_600_000, requestId: 'req-1' });
    expect((error as InstanceType<ClientModule['NkraError']>).details).to.deep.equal({ rule: 'recipient' });
    expect(stub.seen).to.have.length(1);
  });

  it('never retries a resend (it carries no idempotencyKey): VERIFY_RESEND_COOLDOWN comes back at once', async () => {
    stub.replies.push(fail(429, 'VERIFY_RESEND_COOLDOWN', {}, { 'retry-after': '12' }), ok(verification()));
    const error = await nkra.verify.resend('ver_1').catch((e: unknown) => e);
    expect(error).to.deep.include({ code: 'VERIFY_RESEND_COOLDOWN', status: 429, retryAfterMs: 12_000 });
    expect(stub.seen).to.have.length(1);
  });

  it('maps the 4xx rules to NkraError without retrying (country, prefix, max sends, not found)', async () => {
    stub.replies.push(fail(422, 'VERIFY_COUNTRY_NOT_ALLOWED'), fail(422, 'VERIFY_PREFIX_BLOCKED'), fail(422, 'VERIFY_MAX_SENDS'), fail(404, 'NOT_FOUND'));
    const codes = [
      await nkra.verify.start({ to: '+2348031234567' }).catch((e: { code: string; retryAfterMs: unknown }) => [e.code, e.retryAfterMs]),
      await nkra.verify.start({ to: '+233241234567' }).catch((e: { code: string }) => e.code),
      await nkra.verify.resend('ver_1').catch((e: { code: string }) => e.code),
      await nkra.verify.check({ id: 'nope', code: '123456' }).catch((e: { code: string; status: number }) => [e.code, e.status]),
    ];
    expect(codes).to.deep.equal([['VERIFY_COUNTRY_NOT_ALLOWED', null], 'VERIFY_PREFIX_BLOCKED', 'VERIFY_MAX_SENDS', ['NOT_FOUND', 404]]);
    expect(stub.seen).to.have.length(4);
  });
});
