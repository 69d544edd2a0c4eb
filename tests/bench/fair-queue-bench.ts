import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { QUEUES } from '../../core/ports/job-queue.ts';
import { MESSAGING } from '../../hosts/messaging-bindings.ts';
import { INFRA } from '../../hosts/tokens.ts';
import { buildWorkerContainer, WORKER } from '../../hosts/worker/container.ts';
import { startWorker, type RunningWorker } from '../../hosts/worker/worker.ts';
import { ensureBenchDatabase, startSendServer, type SendServer } from './send-server.ts';

/**
 * `npm run bench:fairness` (issue 30, docs/adr/0036-delivery-lanes-and-fair-queueing.md): accept-to-provider
 * latency (a message's `sent_at - created_at`, the default providers answering at once) of
 *
 * 1. idle: tenant B's single async transactional SMS, one at a time, nothing else queued;
 * 2. behind a backlog: tenant A's --backlog async SMS (bulk API, queued while no worker runs), then the worker
 *    (in-process, as `npm start` runs it) drains them while tenant B sends single transactional SMS and
 *    tenant A single OTP SMS, one every --every ms; A's drain rate is reported too.
 *
 * Settings: --backlog=20000 --idle=100 --probes=50 --every=200. Own database `nkra_bench_fairness` on
 * DATABASE_URL's server (default the local PostgreSQL). Targets (issue 30): idle p50 <= 50 ms, p99 <= 200 ms;
 * behind the backlog p99 <= 1 s.
 */
function flag(name: string, fallback: number): number {
  const raw = process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
  const value = Number(raw ?? fallback);
  if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} must be a non-negative number`);
  return value;
}
const settings = { backlog: flag('backlog', 20_000), idle: flag('idle', 100), probes: flag('probes', 50), everyMs: flag('every', 200) };

async function liveKey(server: SendServer, label: string): Promise<{ key: string; organizationId: string }> {
  const sandbox = await server.newSandboxKey(label);
  const storage = server.container.get(INFRA.storage);
  await storage.wallets.update(sandbox.organizationId, () => ({ amount: 100_000_000, kind: 'TOP_UP', reference: `bench-${randomUUID()}`, description: 'bench top-up' }), new Date());
  const [owner] = await server.infra.database.em().execute<{ email: string }[]>(
    'select u.email from users u join memberships m on m.user_id = u.id where m.organization_id = ? limit 1', [sandbox.organizationId]);
  const login = await fetch(`${server.base}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: owner!.email, password: 'bench-passphrase-123' }) });
  const token = ((await login.json()) as { data: { token: string } }).data.token;
  const created = await fetch(`${server.base}/api-keys`, {
    method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'x-organization-id': sandbox.organizationId },
    body: JSON.stringify({ name: 'bench live', isSandbox: false, scopes: ['messages:send', 'messages:read'] }),
  });
  if (created.status !== 201) throw new Error(`live key: ${created.status} ${await created.text()}`);
  return { key: ((await created.json()) as { data: { key: string } }).data.key, organizationId: sandbox.organizationId };
}

let recipient = 2_000_000;
const nextRecipient = () => `+23324${String(recipient++).padStart(7, '0')}`;

async function sendOne(server: SendServer, key: string, category: 'TRANSACTIONAL' | 'OTP'): Promise<string> {
  const res = await fetch(`${server.base}/messages/send`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify({ channel: 'SMS', to: nextRecipient(), body: category === 'OTP' ? 'Your code is 246810' : 'Your parcel is on its way', category, async: true }) });
  if (res.status !== 202) throw new Error(`send answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { data: { id: string } }).data.id;
}

/** Milliseconds from acceptance to the provider's answer of each message, once every one is SENT (or the deadline passes). */
async function latencies(server: SendServer, ids: readonly string[], timeoutMs = 600_000): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await server.infra.database.em().execute<{ ms: string | number | null }[]>(
      'select extract(epoch from (sent_at - created_at)) * 1000 as ms from messages where id = any(?::text[])', [`{${ids.join(',')}}`]);
    if (rows.every((r) => r.ms !== null) || Date.now() > deadline) return rows.flatMap((r) => (r.ms === null ? [] : [Number(r.ms)]));
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const pct = (values: readonly number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};
const fmt = (v: number) => (Number.isNaN(v) ? 'n/a' : `${Math.round(v)} ms`);

async function queueBacklog(server: SendServer, key: string, total: number): Promise<void> {
  let next = 0;
  const enqueue = async () => {
    while (next < total) {
      const from = next; next = Math.min(total, next + 100);
      const messages = Array.from({ length: next - from }, () => ({ channel: 'SMS', to: nextRecipient(), body: 'Bulk backlog' }));
      const res = await fetch(`${server.base}/messages/bulk`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body: JSON.stringify({ async: true, messages }) });
      if (res.status !== 202) throw new Error(`bulk answered ${res.status}: ${await res.text()}`);
    }
  };
  await Promise.all(Array.from({ length: 8 }, enqueue));
}

async function main(): Promise<void> {
  const serverUrl = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
  const server = await startSendServer(await ensureBenchDatabase(serverUrl, 'nkra_bench_fairness'));
  let worker: RunningWorker | null = null;
  const startTheWorker = async () => {
    const container = buildWorkerContainer(server.config, server.logger, server.infra, { runtime: server.container.get(MESSAGING.runtime) });
    worker = await startWorker(server.infra.boss, container.getAll(WORKER.handlers), server.logger);
  };
  try {
    await server.infra.boss.deleteAllJobs(QUEUES.notificationSend);
    const a = await liveKey(server, 'tenant-a');
    const b = await liveKey(server, 'tenant-b');

    await startTheWorker();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    console.log(`idle: ${settings.idle} single async SMS of tenant B, one at a time ...`);
    const idle: number[] = [];
    for (let i = 0; i < settings.idle; i++) idle.push(...await latencies(server, [await sendOne(server, b.key, 'TRANSACTIONAL')], 30_000));
    await worker!.stop();

    console.log(`queueing tenant A's backlog of ${settings.backlog} async SMS (no worker running) ...`);
    await queueBacklog(server, a.key, settings.backlog);
    await server.vacuum();
    const started = performance.now();
    await startTheWorker();
    const probes = { b: [] as string[], aOtp: [] as string[] };
    for (let i = 0; i < settings.probes && await server.undelivered(a.organizationId) > 0; i++) {
      probes.b.push(await sendOne(server, b.key, 'TRANSACTIONAL'));
      probes.aOtp.push(await sendOne(server, a.key, 'OTP'));
      await new Promise((resolve) => setTimeout(resolve, settings.everyMs));
    }
    const [behindB, behindA] = [await latencies(server, probes.b), await latencies(server, probes.aOtp)];
    while (await server.undelivered(a.organizationId) > 0) await new Promise((resolve) => setTimeout(resolve, 200));
    const drainSeconds = (performance.now() - started) / 1000;
    await worker!.stop();
    worker = null;

    console.log('');
    console.log(`Node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model.trim() ?? 'unknown'}), load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}, ${new Date().toISOString()}`);
    console.log(`command: npm run bench:fairness -- --backlog=${settings.backlog} --idle=${settings.idle} --probes=${settings.probes} --every=${settings.everyMs}`);
    console.log('');
    console.log('| accept-to-provider latency | n | p50 | p90 | p99 | max | target |');
    console.log('|---|---:|---:|---:|---:|---:|---|');
    const row = (name: string, v: number[], target: string) => console.log(`| ${name} | ${v.length} | ${fmt(pct(v, 50))} | ${fmt(pct(v, 90))} | ${fmt(pct(v, 99))} | ${fmt(Math.max(...v))} | ${target} |`);
    row('idle: tenant B transactional', idle, 'p50 <= 50 ms, p99 <= 200 ms');
    row(`tenant B transactional, A's ${settings.backlog.toLocaleString('en')} queued`, behindB, 'p99 <= 1 s');
    row(`tenant A OTP, behind its own ${settings.backlog.toLocaleString('en')}`, behindA, 'p99 <= 1 s');
    console.log('');
    console.log(`tenant A's backlog drained in ${drainSeconds.toFixed(1)} s (${Math.round(settings.backlog / drainSeconds).toLocaleString('en')} messages/s, with the probes); A ${JSON.stringify(await server.statusCounts(a.organizationId))}, B ${JSON.stringify(await server.statusCounts(b.organizationId))}`);
  } finally {
    await (worker as RunningWorker | null)?.stop();
    await server.close();
  }
}

await main();
