import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { openDatabase } from '../../adapters/postgres/database.ts';
import { MikroOrmStorage } from '../../adapters/postgres/mikro-orm-storage.ts';
import { UuidV7IdGenerator } from '../../adapters/security/uuid-v7-id-generator.ts';
import { AesGcmCredentialCipher } from '../../adapters/security/aes-gcm-credential-cipher.ts';
import { newOrganization } from '../../core/domain/organization.ts';
import { publishOutboundEvent } from '../../core/use-cases/webhooks/publish-outbound-event.ts';
import { createLogger } from '../../hosts/logger.ts';
import { openInfrastructure } from '../../hosts/infrastructure.ts';
import { INFRA } from '../../hosts/tokens.ts';
import { buildWorkerContainer, WORKER } from '../../hosts/worker/container.ts';
import { startWorker } from '../../hosts/worker/worker.ts';
import { testConfig } from '../support/test-config.ts';

/**
 * `npm run bench:webhooks`: webhook dispatch on PostgreSQL through the real worker (pg-boss, the
 * webhook-dispatch handler, which fans out and makes first attempts a fetched batch at a time, and the
 * webhook-deliver handler of retries; the SSRF-guarded sender) to a local receiver.
 * Events are published (by a separate pool and pg-boss, as the API process would) at --rate (default
 * 500/s) for --seconds (default 20) to one endpoint
 * subscribed to everything; measured: event-to-first-attempt latency (publish commit -> request
 * received) p50/p99 and the delivered rate. Target (issue 8): keeps up with 500 events/s, p99 < 1 s.
 * Own database `nkra_bench_webhooks`, recreated at every run (dropped at the end with --drop). Exits 1 when missed.
 * Options: --concurrency (WORKER_CONCURRENCY, default 20), --dispatch-batch and --dispatch-fetchers (override the
 * webhook-dispatch handler's batch size and fetch loops), --by-second (latencies by the second of publishing), --status (the receiver's answer, default 204).
 */
function arg(name: string): string | undefined {
  const found = process.argv.find((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  return found === undefined ? undefined : (found.split('=')[1] ?? 'true');
}
const RATE = Number(arg('rate') ?? 500);
const SECONDS = Number(arg('seconds') ?? 20);
const CONCURRENCY = Number(arg('concurrency') ?? 20);
/** Overrides of the webhook-dispatch handler's batch size and fetch loops, to compare settings. */
const DISPATCH_BATCH = arg('dispatch-batch') === undefined ? undefined : Number(arg('dispatch-batch'));
const DISPATCH_FETCHERS = arg('dispatch-fetchers') === undefined ? undefined : Number(arg('dispatch-fetchers'));
/** The receiver's answer (default 204); e.g. 503 measures first attempts that fail and queue their retries. */
const STATUS = Number(arg('status') ?? 204);
const BENCH_DB = 'nkra_bench_webhooks';

function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

/**
 * CPU seconds (user + system) of the PostgreSQL backends serving the bench database, by pid, read from
 * /proc: the server must run on this machine (empty otherwise). With the bench process's own CPU this
 * says what an event costs, which is steadier on a shared machine than the latencies.
 */
async function backendCpuSeconds(storage: { em(): { execute(sql: string): Promise<unknown[]> } }): Promise<Map<number, number>> {
  const rows = await storage.em().execute(`select pid from pg_stat_activity where datname = '${BENCH_DB}'`) as Array<{ pid: number }>;
  const cpu = new Map<number, number>();
  for (const { pid } of rows) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      cpu.set(pid, (Number(fields[11]) + Number(fields[12])) / 100); // utime, stime in clock ticks (USER_HZ 100)
    } catch { /* not on this machine */ }
  }
  return cpu;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

async function main(): Promise<void> {
  const baseUrl = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
  const admin = await openDatabase({ databaseUrl: withDatabase(baseUrl, 'postgres'), poolSize: 1 });
  // Always a fresh database: jobs left by an interrupted run would be processed (and measured) too.
  await admin.em().execute(`drop database if exists ${BENCH_DB}`);
  await admin.em().execute(`create database ${BENCH_DB}`);
  await admin.close();

  const published = new Map<string, number>();
  const received = new Map<string, number>();
  const receiver = http.createServer((req, res) => {
    const id = String(req.headers['x-service-event-id']);
    req.resume();
    req.on('end', () => { if (!received.has(id)) received.set(id, performance.now()); res.writeHead(STATUS); res.end(); });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

  const config = testConfig({ databaseUrl: withDatabase(baseUrl, BENCH_DB), workerConcurrency: CONCURRENCY, databasePoolSize: 20, encryptionKey: 'ab'.repeat(32) });
  const logger = createLogger('silent');
  const infra = await openInfrastructure(config, logger, { superviseQueue: true, pgliteDir: null });
  const container = buildWorkerContainer(config, logger, infra);
  const storage = container.get(INFRA.storage);
  // The publisher stands in for the API: its own process-like pool and pg-boss, as in a real deployment.
  const apiInfra = await openInfrastructure({ ...config, databasePoolSize: 20 }, logger, { superviseQueue: false, pgliteDir: null });
  const apiStorage = new MikroOrmStorage(apiInfra.database, new UuidV7IdGenerator(), apiInfra.boss);
  const durations = new Map<string, number[]>();
  const batchSizes = new Map<string, number[]>();
  const record = <K, T>(map: Map<K, T[]>, key: K, value: T) => (map.get(key) ?? map.set(key, []).get(key)!).push(value);
  const handlers = container.getAll(WORKER.handlers).map((h) => ({
    ...h,
    ...(h.queue === 'webhook-dispatch' && DISPATCH_BATCH !== undefined ? { batchSize: DISPATCH_BATCH } : {}),
    ...(h.queue === 'webhook-dispatch' && DISPATCH_FETCHERS !== undefined ? { fetchers: DISPATCH_FETCHERS } : {}),
    async handle(data: Record<string, unknown>) {
      const t = performance.now();
      try { await h.handle(data); } finally { record(durations, h.queue, performance.now() - t); }
    },
    ...(h.handleBatch ? {
      async handleBatch(data: ReadonlyArray<Record<string, unknown>>) {
        const t = performance.now();
        try { return await h.handleBatch!(data); } finally { record(durations, h.queue, performance.now() - t); record(batchSizes, h.queue, data.length); }
      },
    } : {}),
  }));
  const worker = await startWorker(infra.boss, handlers, logger);
  try {
    const organizationId = `bench-webhooks-${Date.now()}`;
    const now = new Date();
    await storage.organizations.insert(newOrganization(organizationId, 'Webhook bench', now));
    await storage.webhookEndpoints.insert({
      id: `${organizationId}-endpoint`, organizationId, url, events: [], isActive: true, secretCiphertext: new AesGcmCredentialCipher(config.encryptionKey).encrypt('whsec_bench'),
      previousSecretCiphertext: null, previousSecretExpiresAt: null, disabledReason: null, failingSince: null, createdAt: now, updatedAt: now,
    });
    const total = RATE * SECONDS;
    const cpuBefore = { bench: process.cpuUsage(), backends: await backendCpuSeconds(infra.database) };
    const started = performance.now();
    let sent = 0;
    const inflight = new Set<Promise<void>>();
    while (sent < total) {
      const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * RATE) + 1);
      while (sent < due) {
        if (inflight.size >= 100) { await Promise.race(inflight); continue; } // a saturated database slows the publisher (reported) instead of timing out
        const id = `${organizationId}-evt-${sent}`;
        sent += 1;
        const p = apiStorage.transaction((tx) => publishOutboundEvent(tx, { id, organizationId, kind: 'message.status.updated', data: { n: sent }, occurredAt: new Date() }))
          .then(() => { published.set(id, performance.now()); });
        inflight.add(p);
        void p.finally(() => inflight.delete(p));
      }
      await new Promise((r) => setTimeout(r, 5));
    }
    await Promise.all(inflight);
    const publishSeconds = (performance.now() - started) / 1000;
    const deadline = performance.now() + 60_000;
    while (received.size < total && performance.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const lastReceived = Math.max(...received.values());
    const benchCpu = process.cpuUsage(cpuBefore.bench);
    const backendsAfter = await backendCpuSeconds(infra.database);
    const backendCpu = [...backendsAfter].reduce((sum, [pid, after]) => sum + after - (cpuBefore.backends.get(pid) ?? 0), 0);
    const latencies = [...published].filter(([id]) => received.has(id)).map(([id, at]) => Math.max(0, received.get(id)! - at)).sort((a, b) => a - b);
    const p99 = percentile(latencies, 99);
    const deliveredRate = received.size / ((lastReceived - started) / 1000);
    console.log(`\nNode ${process.version}, ${os.cpus().length} CPUs; worker concurrency ${CONCURRENCY}; ${new Date().toISOString()}`);
    console.log('| events | publish rate /s | delivered | delivered rate /s | p50 ms | p95 ms | p99 ms | max ms |');
    console.log('|---:|---:|---:|---:|---:|---:|---:|---:|');
    console.log(`| ${total} | ${(total / publishSeconds).toFixed(0)} | ${received.size} | ${deliveredRate.toFixed(0)} | ${percentile(latencies, 50).toFixed(0)} | `
      + `${percentile(latencies, 95).toFixed(0)} | ${p99.toFixed(0)} | ${(latencies[latencies.length - 1] ?? NaN).toFixed(0)} |`);
    if (arg('by-second') !== undefined) { // where the tail comes from: latencies by the second of publishing
      const bySecond = new Map<number, number[]>();
      for (const [id, at] of published) if (received.has(id)) record(bySecond, Math.floor((at - started) / 1000), received.get(id)! - at);
      for (const [second, list] of [...bySecond].sort((a, b) => a[0] - b[0])) {
        list.sort((a, b) => a - b);
        console.log(`second ${second}: ${list.length} events, p50 ${percentile(list, 50).toFixed(0)} ms, p99 ${percentile(list, 99).toFixed(0)} ms`);
      }
    }
    for (const [queue, list] of durations) {
      if (!queue.startsWith('webhook')) continue;
      const sorted = [...list].sort((a, b) => a - b);
      const sizes = batchSizes.get(queue);
      const what = sizes ? `${list.length} batches (${sizes.reduce((a, b) => a + b, 0)} jobs, mean ${(sizes.reduce((a, b) => a + b, 0) / sizes.length).toFixed(1)} a batch)` : `${list.length} jobs`;
      console.log(`${queue}: ${what}, handler p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms`);
    }
    const benchCpuSeconds = (benchCpu.user + benchCpu.system) / 1e6;
    console.log(`CPU from the first publish to the last request: bench process (publisher, worker, receiver) ${benchCpuSeconds.toFixed(2)} s, `
      + `PostgreSQL backends ${backendCpu.toFixed(2)} s (${backendsAfter.size} connections): ${((benchCpuSeconds + backendCpu) * 1000 / total).toFixed(2)} ms per event`);
    console.log(`targets: keeps up with ${RATE}/s (delivered rate >= ${(RATE * 0.95).toFixed(0)}/s), p99 event-to-first-attempt < 1000 ms`);
    if (received.size < total || p99 >= 1000 || deliveredRate < RATE * 0.95) { console.error('target missed'); process.exitCode = 1; }
  } finally {
    await worker.stop();
    await apiInfra.close();
    await infra.close();
    receiver.close();
    if (arg('drop') !== undefined) {
      const again = await openDatabase({ databaseUrl: withDatabase(baseUrl, 'postgres'), poolSize: 1 });
      await again.em().execute(`drop database if exists ${BENCH_DB}`); await again.close();
    }
  }
}

await main();
