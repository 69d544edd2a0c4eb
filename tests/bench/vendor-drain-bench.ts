import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { QUEUES } from '../../core/ports/job-queue.ts';
import { INFRA } from '../../hosts/tokens.ts';
import { MESSAGING } from '../../hosts/messaging-bindings.ts';
import { buildWorkerContainer, WORKER } from '../../hosts/worker/container.ts';
import { startWorker } from '../../hosts/worker/worker.ts';
import { ensureBenchDatabase, machineBusy, startSendServer, type SendServer } from './send-server.ts';

/**
 * `npm run bench:vendors`: the worker draining N queued live SMS through a real vendor adapter
 * (Arkesel v2 over HTTP) to a local fake Arkesel that answers every send after a fixed latency
 * (default 50 ms). Target (issue 4): >= 1,000 messages/s, with the provider's bounds honoured: the
 * fake records the most requests it ever had in flight and the most it received in any one second,
 * and the bench fails if either exceeds the provider's `maxConcurrency` / `maxPerSecond` settings.
 *
 * Settings: --messages=20000 --latency=50 --max-concurrency=200 --max-per-second=0 (0 = unlimited)
 * --worker-concurrency=50 (WORKER_CONCURRENCY: jobs per fetched batch; 4 fetchers per process).
 * Works in its own database `nkra_bench_vendors` on DATABASE_URL's server (default the local PostgreSQL).
 */

function flag(name: string, fallback: number): number {
  const raw = process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
  const value = Number(raw ?? fallback);
  if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} must be a non-negative number`);
  return value;
}

const settings = {
  messages: flag('messages', 20_000), latencyMs: flag('latency', 50), maxConcurrency: flag('max-concurrency', 200),
  maxPerSecond: flag('max-per-second', 0), workerConcurrency: flag('worker-concurrency', 50),
};
const TARGET = 1_000;

interface FakeVendor { url: string; stats(): Promise<{ accepted: number; maxInFlight: number; maxPerSecond: number }>; close(): Promise<void> }

/** Arkesel's send endpoint in a child process (slow-vendor-process.ts), answering after `latencyMs`. */
async function startSlowArkesel(latencyMs: number): Promise<FakeVendor> {
  const child = fork(fileURLToPath(new URL('./slow-vendor-process.ts', import.meta.url)), [String(latencyMs)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ask = <T>(type: string) => new Promise<T>((resolve) => {
    const listener = (message: { type: string }) => { if (message.type === type) { child.off('message', listener); resolve(message as T); } };
    child.on('message', listener);
  });
  const { port } = await ask<{ port: number }>('listening');
  return {
    url: `http://127.0.0.1:${port}`,
    async stats() { const answer = ask<{ accepted: number; maxInFlight: number; maxPerSecond: number }>('stats'); child.send({ type: 'stats' }); return answer; },
    close: () => new Promise<void>((resolve) => { child.once('exit', () => resolve()); child.send({ type: 'stop' }); }),
  };
}

async function liveKey(server: SendServer): Promise<{ key: string; organizationId: string }> {
  const sandbox = await server.newSandboxKey('vendors'); // registers a tenant; we need a live key of the same tenant
  const storage = server.container.get(INFRA.storage);
  await storage.wallets.update(sandbox.organizationId, () => ({ amount: 100_000_000, kind: 'TOP_UP', reference: `bench-${randomUUID()}`, description: 'bench top-up' }), new Date());
  // A live key is created the way a dashboard does it: a login of the bench tenant's owner, then POST /api-keys.
  return { key: await createLiveKey(server, sandbox.organizationId), organizationId: sandbox.organizationId };
}

async function createLiveKey(server: SendServer, organizationId: string): Promise<string> {
  const [owner] = await server.infra.database.em().execute<{ email: string }[]>(
    `select u.email from users u join memberships m on m.user_id = u.id where m.organization_id = ? limit 1`, [organizationId]);
  const login = await fetch(`${server.base}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: owner!.email, password: 'bench-passphrase-123' }) });
  const token = ((await login.json()) as { data: { token: string } }).data.token;
  const created = await fetch(`${server.base}/api-keys`, {
    method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'x-organization-id': organizationId },
    body: JSON.stringify({ name: 'bench live', isSandbox: false, scopes: ['messages:send', 'messages:read'] }),
  });
  if (created.status !== 201) throw new Error(`live key: ${created.status} ${await created.text()}`);
  return ((await created.json()) as { data: { key: string } }).data.key;
}

async function main(): Promise<void> {
  const vendor = await startSlowArkesel(settings.latencyMs);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'nkra-vendor-bench-'));
  const providersFile = path.join(dir, 'providers.json');
  await writeFile(providersFile, JSON.stringify({ providers: [{
    name: 'bench-arkesel', vendor: 'arkesel-sms', channel: 'SMS', priority: 1, countries: ['*'],
    settings: { senderId: 'NKRA', baseUrl: vendor.url, maxConcurrency: String(settings.maxConcurrency), maxPerSecond: String(settings.maxPerSecond) },
    credentials: { apiKey: 'bench-arkesel-key' },
  }] }));
  process.env['PROVIDERS_FILE'] = providersFile;
  process.env['WORKER_CONCURRENCY'] = String(settings.workerConcurrency);
  const serverUrl = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
  const server = await startSendServer(await ensureBenchDatabase(serverUrl, 'nkra_bench_vendors'));
  let ok = false;
  try {
    await server.infra.boss.deleteAllJobs(QUEUES.notificationSend);
    const { key, organizationId } = await liveKey(server);
    console.log(`queueing ${settings.messages} live SMS (bulk API, async) ...`);
    let next = 0;
    const enqueue = async () => {
      while (next < settings.messages) {
        const from = next; next = Math.min(settings.messages, next + 100);
        const messages = Array.from({ length: next - from }, (_, i) => ({ channel: 'SMS', to: `+23324${String(1_000_000 + from + i).padStart(7, '0')}`, body: 'Vendor drain bench' }));
        const res = await fetch(`${server.base}/messages/bulk`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body: JSON.stringify({ async: true, messages }) });
        if (res.status !== 202) throw new Error(`bulk answered ${res.status}: ${await res.text()}`);
      }
    };
    await Promise.all(Array.from({ length: 8 }, enqueue));
    await server.vacuum();
    console.log(`draining through the fake Arkesel (${settings.latencyMs} ms per send) ...`);
    const workerContainer = buildWorkerContainer(server.config, server.logger, server.infra, { runtime: server.container.get(MESSAGING.runtime) });
    const started = performance.now();
    const [cpu0, machine0] = [process.cpuUsage(), os.cpus()];
    const worker = await startWorker(server.infra.boss, workerContainer.getAll(WORKER.handlers), server.logger);
    let sent = 0;
    const deadline = started + Math.max(120_000, settings.messages * 10);
    while (sent < settings.messages && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      sent = settings.messages - await server.undelivered(organizationId);
    }
    sent = (await server.statusCounts(organizationId))['SENT'] ?? 0;
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const machine = machineBusy(machine0, os.cpus());
    await worker.stop();
    const counts = await server.statusCounts(organizationId);
    const rate = Math.round(sent / seconds);
    const fake = { ...(await vendor.stats()) };
    const concurrencyOk = fake.maxInFlight <= settings.maxConcurrency;
    const mpsOk = settings.maxPerSecond === 0 || fake.maxPerSecond <= settings.maxPerSecond + 1; // +1: a window edge
    const clean = sent === settings.messages && fake.accepted === settings.messages;
    ok = rate >= TARGET && concurrencyOk && mpsOk && clean;
    console.log('');
    console.log(`Node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model.trim() ?? 'unknown'}), ${new Date().toISOString()}`);
    console.log(`command: npm run bench:vendors -- --messages=${settings.messages} --latency=${settings.latencyMs} --max-concurrency=${settings.maxConcurrency} --max-per-second=${settings.maxPerSecond} --worker-concurrency=${settings.workerConcurrency}`);
    console.log('');
    console.log('| messages | vendor latency | drain messages/s | target | vendor max in flight (limit) | vendor max per second (limit) | vendor submissions | server CPU | machine CPU |');
    console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    console.log(`| ${settings.messages.toLocaleString('en')} | ${settings.latencyMs} ms | ${rate.toLocaleString('en')} | >= ${TARGET.toLocaleString('en')}${rate >= TARGET ? '' : ' MISSED'} `
      + `| ${fake.maxInFlight} (${settings.maxConcurrency})${concurrencyOk ? '' : ' EXCEEDED'} | ${fake.maxPerSecond} (${settings.maxPerSecond || 'unlimited'})${mpsOk ? '' : ' EXCEEDED'} `
      + `| ${fake.accepted.toLocaleString('en')} | ${Math.round(((cpu.user + cpu.system) / 1e6 / seconds) * 100)}% | ${Math.round(machine * 100)}% |`);
    console.log('');
    console.log(`messages ${JSON.stringify(counts)}; ${clean ? 'every message submitted exactly once' : 'NOT CLEAN: submissions and SENT differ from the messages queued'}`);
    console.log(ok ? 'all targets met' : 'BELOW TARGET or FAILED');
  } finally {
    await server.close();
    await vendor.close();
    await rm(dir, { recursive: true, force: true });
  }
  process.exitCode = ok ? 0 : 1;
}

await main();
