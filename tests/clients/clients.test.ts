import { execFile, spawn, spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { logsTo, ROOT, setUpTenant, startDroppingProxy, startRealApi, type ApiTenant, type DroppingProxy, type RealApi } from './real-api.ts';

type ClientModule = typeof import('../../clients/typescript/src/index.ts');

const run = promisify(execFile);
const TS_DIR = path.join(ROOT, 'clients/typescript');
const PY_DIR = path.join(ROOT, 'clients/python');
const phone = (n: number) => `+23324${String(8_000_000 + n).padStart(7, '0')}`;

/** Runs a command without blocking the event loop (the proxy in this process must keep forwarding). */
function runAsync(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; timeout: number }): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = ''; let stderr = '';
    child.stdout.on('data', (d) => { stdout += String(d); });
    child.stderr.on('data', (d) => { stderr += String(d); });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeout);
    child.on('close', (status) => { clearTimeout(timer); resolve({ status, stdout, stderr }); });
  });
}

function python(): string | null {
  for (const candidate of ['python3', 'python']) {
    const probe = spawnSync(candidate, ['-c', 'import sys; assert sys.version_info >= (3, 9)'], { encoding: 'utf8' });
    if (probe.status === 0) return candidate;
  }
  return null;
}

/**
 * Both client libraries against the real API: `node hosts/main.ts` (API + worker) on the embedded
 * PGlite in a temporary data directory, a sandbox API key (never charged), and a TCP proxy that
 * drops a response after the API has acted, to prove a retry never sends twice.
 */
describe('client libraries against the real API (embedded default)', function () {
  this.timeout(120_000);
  let api: RealApi;
  let tenant: ApiTenant;
  let proxy: DroppingProxy;
  let client: ClientModule;

  before(async () => {
    await run(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', path.join(TS_DIR, 'tsconfig.json')]);
    client = await import(pathToFileURL(path.join(TS_DIR, 'dist/index.js')).href) as ClientModule;
    api = await startRealApi();
    tenant = await setUpTenant(api.url, 'ts');
    proxy = await startDroppingProxy(api.url);
  });
  after(async () => {
    await proxy?.close();
    await api?.close();
  });

  describe('TypeScript (clients/typescript, built with tsc)', () => {
    let nkra: InstanceType<ClientModule['NkraClient']>;
    before(() => { nkra = new client.NkraClient({ apiKey: tenant.sandboxKey, baseUrl: api.url, timeoutMs: 10_000 }); });

    it('sends one message and looks it up', async () => {
      const log = await nkra.send({ channel: 'SMS', to: phone(1), body: 'Hello from the TypeScript client' });
      expect(log).to.include({ status: 'DELIVERED', channel: 'SMS', recipient: phone(1), isSandbox: true, cost: 0 });
      const detail = await nkra.getMessage(log.id);
      expect(detail).to.include({ id: log.id, body: 'Hello from the TypeScript client' });
      expect(detail.statusHistory.map((h) => h.status)).to.include('DELIVERED');
    });

    it('asks a number\'s mobile network without a paid lookup (POST /routing/lookups)', async () => {
      expect(await nkra.lookupNetwork({ to: '0501234567', lookup: false })).to.deep.equal({ number: '+233501234567', country: 'GH', network: 'TELECEL', source: 'prefix', charged: 0 });
    });

    it('returns a fraud-REJECTED send as a result, not an error', async () => {
      const log = await nkra.send({ channel: 'SMS', to: '+448712345678', body: 'x' });
      expect(log).to.include({ status: 'REJECTED', errorCode: 'FRAUD_PREMIUM_RATE' });
    });

    it('sends in bulk, and refuses more than 100 messages without calling the API', async () => {
      const logs = await nkra.sendBulk({ messages: [{ channel: 'SMS', to: phone(2), body: 'one' }, { channel: 'EMAIL', to: 'ama@example.com', subject: 'Hi', body: 'two' }] });
      expect(logs.map((l) => [l.channel, l.status])).to.deep.equal([['SMS', 'DELIVERED'], ['EMAIL', 'DELIVERED']]);
      let calls = 0;
      const counting = new client.NkraClient({ apiKey: tenant.sandboxKey, baseUrl: api.url, fetch: (async (...args: Parameters<typeof fetch>) => { calls += 1; return fetch(...args); }) as typeof fetch });
      const tooMany = Array.from({ length: 101 }, (_, i) => ({ channel: 'SMS' as const, to: phone(100 + i), body: 'x' }));
      const error = await counting.sendBulk({ messages: tooMany }).catch((e: unknown) => e);
      expect(error).to.be.instanceOf(client.NkraError);
      expect(error).to.include({ code: 'VALIDATION_ERROR', status: 0 });
      expect((error as InstanceType<ClientModule['NkraError']>).fieldErrors['messages']?.[0]).to.match(/at most 100/);
      expect(calls).to.equal(0);
    });

    it('triggers an event', async () => {
      const trigger = await nkra.triggerEvent({ event: tenant.eventSlug, to: phone(3), variables: { name: 'Kofi', order: 'A-1' } });
      expect(trigger).to.include({ status: 'DELIVERED', channel: 'SMS', event: tenant.eventSlug });
      expect(trigger.deliveryLogs).to.have.length(1);
      expect((await nkra.getMessage(trigger.deliveryLogs[0]!.id)).body).to.equal('Hi Kofi, order A-1 shipped');
    });

    it('lists failed workflow runs (GET /workflow-runs?status=FAILED): a page with its bound, none here', async () => {
      const page = await nkra.listFailedWorkflowRuns({ since: '2026-01-01T00:00:00Z', limit: 5 });
      expect(page).to.deep.equal({ items: [], since: '2026-01-01T00:00:00.000Z', limit: 5, nextCursor: null });
      const error = await nkra.listFailedWorkflowRuns({ since: 'yesterday' }).catch((e: unknown) => e);
      expect(error).to.include({ code: 'VALIDATION_ERROR', status: 400 });
    });

    it('triggers a fan-out to a topic and follows it with getFanOut', async () => {
      const fanOut = await nkra.triggerFanOut({ event: tenant.eventSlug, topic: 'ts-client-nobody', variables: { name: 'Kofi', order: 'F-1' } });
      expect(fanOut).to.include({ fanOut: true, kind: 'TRIGGERS', topic: 'ts-client-nobody', total: 0 });
      expect(await nkra.getFanOut(fanOut.id)).to.include({ id: fanOut.id, event: tenant.eventSlug });
    });

    it('schedules a send with sendAt (SCHEDULED, scheduledAt) and carries its category', async () => {
      const sendAt = new Date(Date.now() + 3_600_000).toISOString();
      const log = await nkra.send({ channel: 'SMS', to: phone(9), body: 'Your appointment is tomorrow', category: 'REMINDER', sendAt });
      expect(log).to.include({ status: 'SCHEDULED', scheduledAt: sendAt, category: 'REMINDER' });
    });

    it('starts, looks up, checks and cancels a verification (a sandbox key\'s answers carry the code as sandboxCode)', async () => {
      const started = await nkra.verify.start({ to: phone(40) });
      expect(started).to.include({ status: 'PENDING', channel: 'SMS', to: phone(40) });
      expect(started.sandboxCode).to.match(/^\d{6}$/);
      expect((await nkra.verify.get(started.id)).sends).to.have.length(1);
      expect(await nkra.verify.check({ id: started.id, code: '0000000000' })).to.deep.include({ valid: false, status: 'PENDING', remainingAttempts: 4 });
      expect(await nkra.verify.check({ to: phone(40), code: '0000000000' })).to.deep.include({ id: started.id, remainingAttempts: 3 });
      expect((await nkra.verify.cancel(started.id)).status).to.equal('CANCELED');
      const cooldown = await nkra.verify.resend(started.id).catch((e: unknown) => e);
      expect(cooldown).to.be.instanceOf(client.NkraError);
      expect(cooldown).to.include({ code: 'CONFLICT', status: 409 });
    });

    it('throws one error type with code, message, details and HTTP status for a validation error', async () => {
      const error = await nkra.send({ channel: 'FAX' as 'SMS', to: phone(4), body: 'x' }).catch((e: unknown) => e) as InstanceType<ClientModule['NkraError']>;
      expect(error).to.be.instanceOf(client.NkraError);
      expect(error).to.include({ code: 'VALIDATION_ERROR', status: 400 });
      expect(error.fieldErrors).to.have.keys('channel');
      expect(error.formErrors).to.deep.equal([]);
      const trigger = await nkra.triggerEvent({ event: tenant.eventSlug }).catch((e: unknown) => e) as InstanceType<ClientModule['NkraError']>;
      expect(trigger).to.include({ code: 'VALIDATION_ERROR', status: 400 });
      expect(trigger.formErrors).to.deep.equal(['to or contactId is required']);
    });

    it('retries after a dropped connection with the same idempotency key: one message, not two', async () => {
      const viaProxy = new client.NkraClient({ apiKey: tenant.sandboxKey, baseUrl: proxy.url, baseDelayMs: 50, timeoutMs: 10_000 });
      const before = proxy.dropped;
      proxy.dropNext(1);
      const log = await viaProxy.send({ channel: 'SMS', to: phone(5), body: 'sent once' });
      expect(proxy.dropped - before).to.equal(1);
      expect(log.status).to.equal('DELIVERED');
      expect((await logsTo(api.url, tenant, phone(5))).map((l) => l.id)).to.deep.equal([log.id]);
    });

    it('retries 503 and 429 honoring Retry-After, keeping one idempotency key across attempts', async () => {
      const bodies: Array<Record<string, unknown>> = [];
      const statuses = [503, 429, 201];
      const server = http.createServer((req, res) => {
        let raw = '';
        req.on('data', (c) => { raw += String(c); });
        req.on('end', () => {
          bodies.push(JSON.parse(raw));
          const status = statuses.shift() ?? 500;
          res.writeHead(status, { 'content-type': 'application/json', ...(status === 201 ? {} : { 'retry-after': '0' }) });
          res.end(JSON.stringify(status === 201 ? { success: true, data: { id: 'm1', status: 'SENT' } }
            : { success: false, error: { code: status === 429 ? 'RATE_LIMITED' : 'SERVICE_UNAVAILABLE', message: 'later', details: {} } }));
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const local = new client.NkraClient({ apiKey: 'nk_test_x', baseUrl: `http://127.0.0.1:${(server.address() as { port: number }).port}`, baseDelayMs: 10 });
        const log = await local.send({ channel: 'SMS', to: phone(6), body: 'x' });
        expect(log).to.include({ id: 'm1' });
        expect(bodies).to.have.length(3);
        expect(new Set(bodies.map((b) => b['idempotencyKey'])).size).to.equal(1);
        expect(String(bodies[0]!['idempotencyKey'])).to.match(/^nkc-/);
        expect(client.parseRetryAfter('2')).to.equal(2000);
        const noRetry = new client.NkraClient({ apiKey: 'nk_test_x', baseUrl: `http://127.0.0.1:${(server.address() as { port: number }).port}`, maxRetries: 0 });
        statuses.push(503);
        expect(await noRetry.send({ channel: 'SMS', to: phone(6), body: 'x' }).catch((e: { code: string; status: number }) => [e.code, e.status]))
          .to.deep.equal(['SERVICE_UNAVAILABLE', 503]);
      } finally {
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    });

    it('verifies X-Service-Signature over the raw body and parses the event', async () => {
      const secret = 'whsec_test_secret';
      const body = JSON.stringify({ id: 'evt_1', kind: 'message.status.updated', occurredAt: '2026-01-01T00:00:00.000Z', data: { messageId: 'm1', status: 'DELIVERED' } });
      const signature = createHmac('sha256', secret).update(body).digest('hex');
      expect(await client.signWebhookBody(body, secret)).to.equal(signature);
      expect(await client.verifyWebhookSignature(body, signature, secret)).to.equal(true);
      expect(await client.verifyWebhookSignature(new TextEncoder().encode(body), signature, secret)).to.equal(true);
      expect(await client.verifyWebhookSignature(`${body} `, signature, secret)).to.equal(false);
      expect(await client.verifyWebhookSignature(body, signature, 'another-secret')).to.equal(false);
      expect(await client.verifyWebhookSignature(body, 'not-hex', secret)).to.equal(false);
      const event = await client.parseWebhook(body, { 'X-Service-Signature': signature, 'x-service-event': 'message.status.updated' }, secret);
      expect(event).to.deep.include({ kind: 'message.status.updated', id: 'evt_1', data: { messageId: 'm1', status: 'DELIVERED' } });
      const forged = await client.parseWebhook(body.replace('DELIVERED', 'FAILED'), { 'x-service-signature': signature }, secret).catch((e: unknown) => e);
      expect(forged).to.include({ code: 'INVALID_SIGNATURE', status: 401 });
    });

    it('runs its example', async () => {
      const { stdout } = await run(process.execPath, [path.join(TS_DIR, 'examples/send.mjs')], { env: { ...process.env, NKRA_API_KEY: tenant.sandboxKey, NKRA_BASE_URL: api.url, NKRA_TO: phone(7) } });
      expect(stdout).to.match(/DELIVERED/);
    });

    it('packs with npm pack into a tarball that installs and imports in an empty project', async () => {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'nkra-client-pack-'));
      try {
        const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
        await run(npm, ['pack', '--pack-destination', dir], { cwd: TS_DIR });
        const tarball = (await readdir(dir)).find((f) => f.endsWith('.tgz'))!;
        expect(tarball).to.match(/^nkra-client-1\.0\.0\.tgz$/);
        await writeFile(path.join(dir, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', type: 'module', private: true }));
        await run(npm, ['install', '--offline', '--no-audit', '--no-fund', path.join(dir, tarball)], { cwd: dir });
        await writeFile(path.join(dir, 'check.mjs'), "import { NkraClient, NkraError, verifyWebhookSignature } from '@nkra/client';\n"
          + "console.log(typeof NkraClient, typeof NkraError, typeof verifyWebhookSignature);\n");
        const { stdout } = await run(process.execPath, ['check.mjs'], { cwd: dir });
        expect(stdout.trim()).to.equal('function function function');
        expect(await readdir(path.join(dir, 'node_modules/@nkra/client/dist'))).to.include.members(['index.js', 'index.d.ts']);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  });

  describe('Python (clients/python, unittest)', () => {
    const py = python();
    let pyTenant: ApiTenant;
    let pyProxy: DroppingProxy;
    before(async function () {
      if (!py) this.skip();
      pyTenant = await setUpTenant(api.url, 'py');
      pyProxy = await startDroppingProxy(api.url);
    });
    after(async () => { await pyProxy?.close(); });

    it('passes its unittest suite against the real API (send, bulk, trigger, lookup, validation error, dropped connection, webhooks)', async () => {
      pyProxy.dropNext(1);
      const result = await runAsync(py!, ['-m', 'unittest', 'discover', '-s', path.join(PY_DIR, 'tests'), '-v'], {
        cwd: PY_DIR, timeout: 90_000,
        env: {
          ...process.env, PYTHONPATH: PY_DIR, PYTHONDONTWRITEBYTECODE: '1', NKRA_BASE_URL: api.url, NKRA_API_KEY: pyTenant.sandboxKey,
          NKRA_PROXY_URL: pyProxy.url, NKRA_JWT: pyTenant.token, NKRA_ORGANIZATION_ID: pyTenant.organizationId, NKRA_EVENT: pyTenant.eventSlug,
        },
      });
      expect(result.status, `${result.stdout}\n${result.stderr}`).to.equal(0);
      expect(result.stderr).to.match(/Ran \d+ tests/);
      expect(result.stderr).to.not.match(/skipped/);
      expect(pyProxy.dropped).to.equal(1);
    });

    it('runs its example', async () => {
      const result = await runAsync(py!, [path.join(PY_DIR, 'examples/send.py')], {
        timeout: 30_000, env: { ...process.env, PYTHONPATH: PY_DIR, PYTHONDONTWRITEBYTECODE: '1', NKRA_API_KEY: pyTenant.sandboxKey, NKRA_BASE_URL: api.url, NKRA_TO: phone(8) },
      });
      expect(result.status, `${result.stdout}\n${result.stderr}`).to.equal(0);
      expect(result.stdout).to.match(/DELIVERED/);
    });

    it('installs with pip from the source directory, offline (in-tree stdlib build backend, nothing downloaded)', async function () {
      const hasPip = spawnSync(py!, ['-m', 'pip', '--version'], { encoding: 'utf8' }).status === 0;
      if (!hasPip) this.skip();
      const target = await mkdtemp(path.join(os.tmpdir(), 'nkra-client-pip-'));
      try {
        const install = await runAsync(py!, ['-m', 'pip', 'install', '--no-index', '--no-deps', '--disable-pip-version-check', '--target', target, PY_DIR],
          { timeout: 90_000, env: { ...process.env, PIP_NO_INPUT: '1' } });
        expect(install.status, `${install.stdout}\n${install.stderr}`).to.equal(0);
        const check = spawnSync(py!, ['-c', 'import nkra_client, sys; print(nkra_client.__version__, nkra_client.__file__)'],
          { encoding: 'utf8', cwd: os.tmpdir(), env: { ...process.env, PYTHONPATH: target } });
        expect(check.stdout).to.include('1.0.0').and.to.include(target);
      } finally {
        await rm(target, { recursive: true, force: true });
      }
    });
  });
});
