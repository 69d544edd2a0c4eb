import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';

const ROOT = path.resolve(import.meta.dirname, '../..');

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A POST whose `sent` resolves once the whole request is on the wire (so it is in flight for the server). */
function postWhenSent(port: number, path: string, body: unknown): { sent: Promise<void>; status: Promise<number> } {
  let markSent!: () => void;
  const sent = new Promise<void>((resolve) => { markSent = resolve; });
  const status = new Promise<number>((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method: 'POST', headers: { 'content-type': 'application/json' }, timeout: 10_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body), () => setTimeout(markSent, 20));
  });
  return { sent, status };
}

interface Started { child: ChildProcess; output: () => string; exited: Promise<number | null> }

function start(entry: string, env: Record<string, string>): Started {
  const child = spawn(process.execPath, [entry], { cwd: ROOT, env: { PATH: process.env['PATH'] ?? '', HOME: os.tmpdir(), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d) => { output += String(d); });
  child.stderr!.on('data', (d) => { output += String(d); });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function waitForReady(started: Started, marker: string, timeoutMs = 50_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!started.output().includes(marker)) {
    if (Date.now() > deadline) throw new Error(`not ready in time:\n${started.output()}`);
    if (started.child.exitCode !== null) throw new Error(`exited early:\n${started.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('process: npm start on the embedded default, graceful shutdown, startup refusal', function () {
  this.timeout(60_000);

  it('serves the API with its worker on PGlite in a new data directory, then drains in-flight requests on SIGTERM', async () => {
    const dataDir = path.join(await mkdtemp(path.join(os.tmpdir(), 'nkra-start-')), 'nested', 'data');
    const port = await freePort();
    const app = start('hosts/main.ts', { DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info' });
    try {
      await waitForReady(app, '"nkra ready"');
      expect(await readdir(dataDir)).to.include.members(['pglite', 'secrets.json']);
      const health = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(5_000) });
      expect(health.status).to.equal(200);

      const requests = Array.from({ length: 8 }, (_, i) => postWhenSent(port, '/auth/register',
        { email: `drain-${i}-${port}@example.com`, password: 'a-good-passphrase', firstName: 'A', lastName: 'B' }));
      await Promise.all(requests.map((r) => r.sent));
      app.child.kill('SIGTERM');
      expect(await Promise.all(requests.map((r) => r.status))).to.deep.equal(Array(8).fill(201));
      expect(await app.exited).to.equal(0);
      expect(app.output()).to.include('shutdown complete');
    } finally {
      app.child.kill('SIGKILL');
    }
  });

  it('first run on another port without PUBLIC_URL: links follow the real port, and a new organization sends live at once', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'nkra-first-run-'));
    const port = await freePort();
    const app = start('hosts/main.ts', { DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info' });
    const base = `http://127.0.0.1:${port}`;
    const call = async (method: string, route: string, body: unknown, headers: Record<string, string> = {}) => {
      const res = await fetch(`${base}${route}`, { method, headers: { 'content-type': 'application/json', ...headers }, body: body === null ? null : JSON.stringify(body), signal: AbortSignal.timeout(10_000) });
      return { status: res.status, body: await res.json() as { data: any } };
    };
    try {
      await waitForReady(app, '"nkra ready"');
      expect(app.output()).to.include(`"url":"http://localhost:${port}"`);
      const registered = await call('POST', '/auth/register', { email: `first-${port}@example.com`, password: 'a-good-passphrase', firstName: 'Ama', lastName: 'Owusu', organizationName: 'First Run Ltd' });
      const auth = { authorization: `Bearer ${registered.body.data.token}`, 'x-organization-id': registered.body.data.organizations[0].id };
      const payment = await call('POST', '/billing/top-up', { amount: 25, paymentMethod: 'mobile_money' }, auth);
      expect(payment.body.data.checkoutUrl).to.match(new RegExp(`^http://localhost:${port}/billing/sandbox-checkout/`));
      expect((await call('GET', '/billing/wallet', null, auth)).body.data).to.include({ balance: 5, trialCredit: 5 });
      const key = await call('POST', '/api-keys', { name: 'Live', isSandbox: false }, auth);
      const sent = await call('POST', '/messages/send', { channel: 'SMS', to: '0241234567', body: 'Hello from a first run' }, { 'x-api-key': key.body.data.key });
      expect(sent.status, JSON.stringify(sent.body)).to.equal(201);
      expect(sent.body.data).to.include({ status: 'SENT', cost: 0.03 });
    } finally {
      app.child.kill('SIGTERM');
      await app.exited;
    }
  });

  it('keeps its data across a restart of the embedded database', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'nkra-restart-'));
    const port = await freePort();
    const env = { DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' };
    const body = JSON.stringify({ email: 'keep@example.com', password: 'a-good-passphrase' });
    const first = start('hosts/main.ts', env);
    await waitForReady(first, '"nkra ready"');
    await fetch(`http://127.0.0.1:${port}/auth/register`, { method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'keep@example.com', password: 'a-good-passphrase', firstName: 'K', lastName: 'E' }) });
    first.child.kill('SIGTERM');
    expect(await first.exited).to.equal(0);
    const second = start('hosts/main.ts', env);
    try {
      await waitForReady(second, '"nkra ready"');
      const login = await fetch(`http://127.0.0.1:${port}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect(login.status).to.equal(200);
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
  });

  it('refuses to start in production without secrets, with a clear message and exit code 1', async () => {
    const app = start('hosts/api/main.ts', { NODE_ENV: 'production', DATA_DIR: await mkdtemp(path.join(os.tmpdir(), 'nkra-prod-')) });
    expect(await app.exited).to.equal(1);
    expect(app.output()).to.include('JWT_SECRET: is required in production').and.to.include('ENCRYPTION_KEY: is required in production');
  });
});
