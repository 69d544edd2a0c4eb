import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { QUEUES } from '../../core/ports/job-queue.ts';
import { newOrganization } from '../../core/domain/organization.ts';
import { INFRA } from '../../hosts/tokens.ts';
import { MESSAGING } from '../../hosts/messaging-bindings.ts';
import { buildWorkerContainer, WORKER } from '../../hosts/worker/container.ts';
import { startWorker } from '../../hosts/worker/worker.ts';
import { ensureBenchDatabase, machineBusy, startSendServer, type SendServer } from './send-server.ts';
import { startSlowArkesel, writeArkeselProvidersFile } from './slow-vendor.ts';
import { liveKey } from './fairness-support.ts';

/**
 * `npm run bench:vendors`: the worker draining N queued live SMS through a real vendor adapter
 * (Arkesel v2 over HTTP) to a local fake Arkesel that answers every send after a fixed latency
 * (default 50 ms). Target (issue 4): >= 1,000 messages/s, with the provider's bounds honoured: the
 * fake records the most requests it ever had in flight and the most it received in any one second,
 * and the bench fails if either exceeds the provider's `maxConcurrency` / `maxPerSecond` settings.
 *
 * Two phases in one run: the platform's provider, then `--tenants` organizations each through its own
 * Arkesel account (same fake, VENDOR_BASE_URLS) with `--noise` more owners' accounts loaded; the second
 * must keep >= 90% of the first's rate (issue 17: resolving each message's owner is cheap).
 * Settings: --messages=20000 --latency=50 --max-concurrency=200 --max-per-second=0 (0 = unlimited) --tenants=10 --noise=500
 * --worker-concurrency=50 (WORKER_CONCURRENCY: jobs per fetched batch; 4 fetchers per process).
 * Works in its own database `nkra_bench_vendors` on DATABASE_URL's server (default the local PostgreSQL).
 *
 * Third phase (issue 21), --processes (default on; --processes=0 skips it): `npm run worker` as separate
 * processes, 1 then 2, each draining --process-messages (2000) queued SMS with the provider's
 * maxConcurrency at --process-concurrency (5) per process, so the vendor's latency, not the CPU, is the
 * bound (one process: at most 5 / 50 ms = 100 messages/s). Target: 2 processes >= 1.6 x one. The rate
 * is taken between 10 % and 90 % of the drain (process start-up excluded). --processes-only skips the
 * first two phases.
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
  tenants: Math.max(1, flag('tenants', 10)), noise: flag('noise', 500),
};
const TARGET = 1_000;
const PROCESS_RATIO = 1.6;
const processSettings = { enabled: flag('processes', 1) > 0, only: process.argv.includes('--processes-only'), messages: flag('process-messages', 2_000), concurrency: flag('process-concurrency', 5) };
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The own-account phase keeps at least this share of the platform phase's rate (resolving owners costs <= 10%). */
const TENANT_RATIO = 0.9;

/** Queues `perOrg` live SMS for each (key, organization) through the bulk API (async), 8 requests in flight. */
async function queue(server: SendServer, senders: ReadonlyArray<{ key: string }>, perOrg: number, recipientBase: number): Promise<void> {
  // Round-robin over the senders, as several tenants sending at once do (not one tenant's whole backlog after another's).
  const work = Array.from({ length: Math.ceil(perOrg / 100) }, (_, chunk) => senders.map((s) => ({ key: s.key, from: chunk * 100, to: Math.min(perOrg, chunk * 100 + 100) }))).flat();
  let next = 0;
  const enqueue = async () => {
    while (next < work.length) {
      const { key, from, to } = work[next++]!;
      const messages = Array.from({ length: to - from }, (_, i) => ({ channel: 'SMS', to: `+23324${String(recipientBase + from + i).padStart(7, '0')}`, body: 'Vendor drain bench' }));
      const res = await fetch(`${server.base}/messages/bulk`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body: JSON.stringify({ async: true, messages }) });
      if (res.status !== 202) throw new Error(`bulk answered ${res.status}: ${await res.text()}`);
    }
  };
  await Promise.all(Array.from({ length: 8 }, enqueue));
}

interface Drain { rate: number; sent: number; counts: Record<string, number>; serverCpu: number; machineCpu: number }

/** Starts a worker as `npm start` runs it and times it draining the organizations' queued messages. */
async function drain(server: SendServer, organizationIds: readonly string[], total: number): Promise<Drain> {
  await server.vacuum();
  const workerContainer = buildWorkerContainer(server.config, server.logger, server.infra, { runtime: server.container.get(MESSAGING.runtime) });
  const started = performance.now();
  const [cpu0, machine0] = [process.cpuUsage(), os.cpus()];
  const worker = await startWorker(server.infra.boss, workerContainer.getAll(WORKER.handlers), server.logger);
  const waiting = async () => (await Promise.all(organizationIds.map((id) => server.undelivered(id)))).reduce((a, b) => a + b, 0);
  const deadline = started + Math.max(120_000, total * 10);
  while (performance.now() < deadline && await waiting() > 0) await new Promise((resolve) => setTimeout(resolve, 200));
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const machineCpu = machineBusy(machine0, os.cpus());
  await worker.stop();
  const counts: Record<string, number> = {};
  for (const id of organizationIds) for (const [status, n] of Object.entries(await server.statusCounts(id))) counts[status] = (counts[status] ?? 0) + n;
  const sent = counts['SENT'] ?? 0;
  return { rate: Math.round(sent / seconds), sent, counts, serverCpu: (cpu.user + cpu.system) / 1e6 / seconds, machineCpu };
}

/**
 * The tenant phase: `tenants` organizations send through their own Arkesel accounts (the same fake,
 * through VENDOR_BASE_URLS), while `noise` other organizations' own accounts are loaded too, so every
 * message's route is resolved among many owners. Answers the senders (with their account names).
 */
async function tenantSenders(server: SendServer, tenants: number, noise: number): Promise<Array<{ key: string; organizationId: string; account: string }>> {
  const providers = server.container.get(MESSAGING.providerRepository);
  const storage = server.container.get(INFRA.storage);
  const senders: Array<{ key: string; organizationId: string; account: string }> = [];
  for (let t = 0; t < tenants; t++) {
    const sender = await liveKey(server, 'vendors');
    const account = `own-arkesel-${t}`;
    // Each account the platform provider's in-flight limit (an operator setting; tenants cannot set it): the worker's 200 jobs in
    // flight bound both phases alike, so they differ only in routing (a fetched batch holds one tenant's messages; a smaller
    // per-account limit would make the batch, not the routing, the bound).
    await providers.create({ name: account, vendor: 'arkesel-sms', channel: 'SMS', priority: 1, active: true, countries: ['*'],
      settings: { senderId: 'NKRA', maxConcurrency: String(settings.maxConcurrency) },
      organizationId: sender.organizationId, platformFallback: true }, { apiKey: 'bench-arkesel-key' }, new Date());
    senders.push({ ...sender, account });
  }
  for (let n = 0; n < noise; n++) {
    const organizationId = randomUUID();
    const now = new Date();
    await storage.organizations.insert({ ...newOrganization(organizationId, `Noise ${n}`, now) });
    await providers.create({ name: `noise-${n}`, vendor: 'arkesel-sms', channel: 'SMS', priority: 1, active: true, countries: ['GH'], settings: { senderId: 'NOISE' },
      organizationId, platformFallback: true }, { apiKey: 'bench-arkesel-key' }, now);
  }
  await server.container.get(MESSAGING.runtime).reload();
  return senders;
}

/**
 * `count` worker processes (`node hosts/worker/main.ts`) on the bench database draining the organization's
 * queued messages, with the platform provider's maxConcurrency at `processSettings.concurrency`. Answers
 * messages/s between 10 % and 90 % of the drain.
 */
async function drainWithProcesses(server: SendServer, vendorUrl: string, dir: string, organizationId: string, total: number, count: number): Promise<number> {
  const providersFile = path.join(dir, `providers-${count}.json`);
  await writeArkeselProvidersFile(providersFile, vendorUrl, { maxConcurrency: processSettings.concurrency, maxPerSecond: 0 });
  const env = {
    PATH: process.env['PATH'] ?? '', HOME: os.tmpdir(), DATABASE_URL: server.config.databaseUrl!, DATA_DIR: dir, PROVIDERS_FILE: providersFile,
    JWT_SECRET: server.config.jwtSecret, ENCRYPTION_KEY: server.config.encryptionKey, LOG_LEVEL: 'warn', PORT: '0',
    WORKER_CONCURRENCY: String(settings.workerConcurrency), FRAUD_NEW_TENANT_DAYS: '0',
  };
  const children: ChildProcess[] = Array.from({ length: count }, () => spawn(process.execPath, ['hosts/worker/main.ts'], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'inherit'] }));
  const samples: Array<{ at: number; done: number }> = [];
  try {
    const deadline = performance.now() + Math.max(180_000, total * 20);
    for (;;) {
      const left = await server.undelivered(organizationId);
      samples.push({ at: performance.now(), done: total - left });
      if (left === 0 || performance.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    for (const c of children) c.kill('SIGTERM');
    await Promise.all(children.map((c) => new Promise((resolve) => (c.exitCode !== null ? resolve(null) : c.once('exit', resolve)))));
  }
  const from = samples.find((s) => s.done >= total * 0.1)!;
  const to = samples.find((s) => s.done >= total * 0.9)!;
  return Math.round((to.done - from.done) / ((to.at - from.at) / 1000));
}

async function main(): Promise<void> {
  const vendor = await startSlowArkesel(settings.latencyMs);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'nkra-vendor-bench-'));
  const providersFile = path.join(dir, 'providers.json');
  await writeArkeselProvidersFile(providersFile, vendor.url, settings);
  process.env['PROVIDERS_FILE'] = providersFile;
  process.env['WORKER_CONCURRENCY'] = String(settings.workerConcurrency);
  process.env['VENDOR_BASE_URLS'] = JSON.stringify({ 'arkesel-sms': vendor.url }); // tenants' own accounts reach the same fake
  const serverUrl = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
  const server = await startSendServer(await ensureBenchDatabase(serverUrl, 'nkra_bench_vendors'));
  let ok = false;
  try {
    await server.infra.boss.deleteAllJobs(QUEUES.notificationSend);
    if (processSettings.only) {
      ok = await processPhase(server, vendor.url, dir);
      process.exitCode = ok ? 0 : 1;
      return;
    }
    const platformSender = await liveKey(server, 'vendors');
    console.log(`platform phase: queueing ${settings.messages} live SMS of one tenant (bulk API, async) ...`);
    await queue(server, [platformSender], settings.messages, 1_000_000);
    console.log(`draining through the platform's Arkesel provider to the fake (${settings.latencyMs} ms per send) ...`);
    const platform = await drain(server, [platformSender.organizationId], settings.messages);
    const afterPlatform = (await vendor.stats()).accepted;

    console.log(`tenant phase: ${settings.tenants} tenants with their own Arkesel accounts, ${settings.noise} other organizations' accounts loaded ...`);
    const senders = await tenantSenders(server, settings.tenants, settings.noise);
    const perTenant = Math.floor(settings.messages / settings.tenants);
    await queue(server, senders, perTenant, 3_000_000);
    const tenant = await drain(server, senders.map((s) => s.organizationId), perTenant * senders.length);
    let own = 0;
    for (const s of senders) {
      const [row] = await server.infra.database.em().execute<{ n: string }[]>('select count(*)::text as n from messages where organization_id = ? and provider = ?', [s.organizationId, s.account]);
      own += Number(row?.n ?? 0);
    }
    const routed = { own, total: tenant.sent };
    const fake = { ...(await vendor.stats()) };
    const ratio = tenant.rate / Math.max(1, platform.rate);
    const concurrencyOk = fake.maxInFlight <= settings.maxConcurrency * Math.max(1, settings.tenants); // each account holds its own limit
    const mpsOk = settings.maxPerSecond === 0 || fake.maxPerSecond <= settings.maxPerSecond + 1; // +1: a window edge
    const clean = platform.sent === settings.messages && tenant.sent === perTenant * senders.length && fake.accepted === platform.sent + tenant.sent
      && afterPlatform === platform.sent && Number(routed?.own) === tenant.sent;
    ok = platform.rate >= TARGET && ratio >= TENANT_RATIO && concurrencyOk && mpsOk && clean;
    const row = (name: string, d: Drain, target: string) => `| ${name} | ${d.sent.toLocaleString('en')} | ${d.rate.toLocaleString('en')} | ${target} | ${Math.round(d.serverCpu * 100)}% | ${Math.round(d.machineCpu * 100)}% |`;
    console.log('');
    console.log(`Node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model.trim() ?? 'unknown'}), ${new Date().toISOString()}`);
    console.log(`command: npm run bench:vendors -- --messages=${settings.messages} --latency=${settings.latencyMs} --max-concurrency=${settings.maxConcurrency} --max-per-second=${settings.maxPerSecond} --worker-concurrency=${settings.workerConcurrency} --tenants=${settings.tenants} --noise=${settings.noise}`);
    console.log('');
    console.log('| phase | messages | drain messages/s | target | server CPU | machine CPU |');
    console.log('|---|---:|---:|---:|---:|---:|');
    console.log(row('platform provider (one tenant)', platform, `>= ${TARGET.toLocaleString('en')}${platform.rate >= TARGET ? '' : ' MISSED'}`));
    console.log(row(`own accounts (${settings.tenants} tenants, ${settings.noise} more owners loaded)`, tenant, `>= ${Math.round(TENANT_RATIO * 100)}% of platform: ${Math.round(ratio * 100)}%${ratio >= TENANT_RATIO ? '' : ' MISSED'}`));
    console.log('');
    console.log(`vendor: ${fake.accepted.toLocaleString('en')} submissions, max in flight ${fake.maxInFlight} (platform provider limit ${settings.maxConcurrency})${concurrencyOk ? '' : ' EXCEEDED'}, `
      + `max per second ${fake.maxPerSecond} (${settings.maxPerSecond || 'unlimited'})${mpsOk ? '' : ' EXCEEDED'}`);
    console.log(`platform ${JSON.stringify(platform.counts)}; tenants ${JSON.stringify(tenant.counts)}, ${routed?.own ?? 0} of ${routed?.total ?? 0} through their owner's own account`);
    console.log(clean ? 'every message submitted exactly once, each through the right route' : 'NOT CLEAN: submissions, SENT or routes differ from the messages queued');
    if (processSettings.enabled) ok = (await processPhase(server, vendor.url, dir)) && ok;
    console.log(ok ? 'all targets met' : 'BELOW TARGET or FAILED');
  } finally {
    await server.close();
    await vendor.close();
    await rm(dir, { recursive: true, force: true });
  }
  process.exitCode = ok ? 0 : 1;
}

/** 1, then 2 worker processes draining the same number of queued messages: the second must reach PROCESS_RATIO x the first's rate. */
async function processPhase(server: SendServer, vendorUrl: string, dir: string): Promise<boolean> {
  let ok = true;
  const rates: number[] = [];
  for (const count of [1, 2]) {
    const sender = await liveKey(server, 'vendors');
    await queue(server, [sender], processSettings.messages, 5_000_000 + count * 100_000);
    await server.vacuum();
    rates.push(await drainWithProcesses(server, vendorUrl, dir, sender.organizationId, processSettings.messages, count));
    const counts = await server.statusCounts(sender.organizationId);
    if (counts['SENT'] !== processSettings.messages) { ok = false; console.log(`NOT CLEAN: ${count} process(es) left ${JSON.stringify(counts)}`); }
  }
  const ratio = rates[1]! / Math.max(1, rates[0]!);
  ok &&= ratio >= PROCESS_RATIO;
  console.log('');
  console.log(`worker processes (npm run worker), ${processSettings.messages} SMS each, provider maxConcurrency ${processSettings.concurrency} per process, vendor ${settings.latencyMs} ms, load average ${os.loadavg()[0]?.toFixed(1)}:`);
  console.log('| worker processes | drain messages/s (10-90 %) | bound (processes x maxConcurrency / latency) |');
  console.log('|---:|---:|---:|');
  rates.forEach((r, i) => console.log(`| ${i + 1} | ${r.toLocaleString('en')} | ${Math.round(((i + 1) * processSettings.concurrency * 1000) / settings.latencyMs)} |`));
  console.log(`2 processes / 1 process: ${ratio.toFixed(2)}x (target >= ${PROCESS_RATIO}x)${ratio >= PROCESS_RATIO ? '' : ' MISSED'}`);
  return ok;
}

await main();
