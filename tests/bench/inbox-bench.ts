import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import type { InboxItem } from '../../core/domain/inbox.ts';
import { SqlInboxRepository } from '../../adapters/postgres/sql-inbox-repository.ts';
import { UuidV7IdGenerator } from '../../adapters/security/uuid-v7-id-generator.ts';
import { ensureBenchDatabase } from './send-server.ts';
import { startBenchService } from './send-service.ts';

/**
 * `npm run bench:inbox`: the in-app inbox's real-time fan-out (issue 20). The service as `npm start`
 * runs it (API + worker, one child process) on PostgreSQL; 10,000 browsers simulated by a forked
 * process holding one Server-Sent Events stream each (raw sockets, one subscriber per stream).
 *
 * - memory: the service's RSS before and after the streams open, per idle stream;
 * - reference: one item to one subscriber while every stream is open (median of 10);
 * - broadcast: one item to each of the 10,000 subscribers, stored in one statement (one NOTIFY per
 *   item, delivered at commit), latency from the statement's start to each stream's arrival, p50/p99.
 * Target: p99 < 2 s. Settings: --streams=10000 --rounds=3. Database `nkra_bench_inbox` on DATABASE_URL's server.
 */
function flag(name: string, fallback: number): number {
  const raw = process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
  const value = Number(raw ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
  return value;
}
const settings = { streams: flag('streams', 10_000), rounds: flag('rounds', 3) };

const rssMiB = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

function ask<T>(child: ChildProcess, message: unknown): Promise<T> {
  return new Promise((resolve) => { child.once('message', (reply) => resolve(reply as T)); child.send(message as never); });
}

async function main(): Promise<void> {
  const serverUrl = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
  const service = await startBenchService(await ensureBenchDatabase(serverUrl, 'nkra_bench_inbox'), { INBOX_STREAMS_MAX: String(settings.streams + 100) });
  const clients = fork(fileURLToPath(new URL('./inbox-clients.ts', import.meta.url)), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  try {
    await new Promise((resolve) => clients.once('message', resolve));
    const tenant = await service.newTenant('inbox', 100);
    const res = await fetch(`${service.base}/inbox/settings/secret`, { method: 'POST', headers: tenant.jwt });
    const { appId, secret } = (await res.json() as { data: { appId: string; secret: string } }).data;
    const prefix = `b${Date.now().toString(36)}`;
    const inbox = new SqlInboxRepository(service.db.em());
    const ids = new UuidV7IdGenerator();
    const item = (subscriber: number): InboxItem => ({ id: ids.next(), organizationId: tenant.organizationId, subscriberId: `${prefix}-${subscriber}`, messageId: null,
      subject: 'Flash sale', body: 'Everything at 20% off until midnight', createdAt: new Date(), seenAt: null, readAt: null, archivedAt: null });

    await sleep(2_000);
    const rssBefore = rssMiB(service.pid);
    console.log(`service pid ${service.pid}, RSS ${rssBefore.toFixed(1)} MiB before streams; opening ${settings.streams} streams ...`);
    const opening = Date.now();
    const opened = await ask<{ connected: number; failed: number }>(clients, { cmd: 'connect', host: '127.0.0.1', port: Number(new URL(service.base).port), appId, secret, count: settings.streams, prefix, parallel: 100 });
    const openSeconds = (Date.now() - opening) / 1000;
    console.log(`${opened.connected} streams open (${opened.failed} failed) in ${openSeconds.toFixed(1)} s; settling 5 s ...`);
    await sleep(5_000);
    const rssAfter = rssMiB(service.pid);
    const perStreamKiB = ((rssAfter - rssBefore) * 1024) / opened.connected;

    const reference: number[] = [];
    for (let i = 0; i < 10; i++) {
      await ask(clients, { cmd: 'reset' });
      const t0 = Date.now();
      await inbox.insert(item(i));
      const { arrivals } = await ask<{ arrivals: number[] }>(clients, { cmd: 'collect', expect: 1, timeoutMs: 10_000 });
      if (arrivals[0]) reference.push(arrivals[0] - t0);
    }
    reference.sort((a, b) => a - b);

    const rounds: Array<{ received: number; insertMs: number; p50: number; p99: number; max: number; commitP99: number }> = [];
    for (let round = 1; round <= settings.rounds; round++) {
      await ask(clients, { cmd: 'reset' });
      const items = Array.from({ length: opened.connected }, (_, i) => item(i));
      const cpuBefore = service.cpuSeconds();
      const t0 = Date.now();
      await inbox.insertMany(items);
      const insertMs = Date.now() - t0;
      const { arrivals } = await ask<{ arrivals: number[] }>(clients, { cmd: 'collect', expect: items.length, timeoutMs: 60_000 });
      const latencies = arrivals.map((a) => a - t0).sort((a, b) => a - b);
      const afterCommit = arrivals.map((a) => a - t0 - insertMs).sort((a, b) => a - b);
      rounds.push({ received: latencies.length, insertMs, p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: latencies[latencies.length - 1] ?? NaN,
        commitP99: percentile(afterCommit, 99) });
      console.log(`broadcast ${round}: ${latencies.length}/${items.length} received; insert ${insertMs} ms; p50 ${percentile(latencies, 50)} ms, p99 ${percentile(latencies, 99)} ms, max ${latencies[latencies.length - 1]} ms; service CPU ${(service.cpuSeconds() - cpuBefore).toFixed(2)} s`);
      await sleep(1_000);
    }

    const load = os.loadavg()[0]!.toFixed(1);
    const worstP99 = Math.max(...rounds.map((r) => r.p99));
    console.log('\n| measure | value |\n|---|---|');
    console.log(`| streams open | ${opened.connected} of ${settings.streams} (${opened.failed} failed), in ${openSeconds.toFixed(1)} s |`);
    console.log(`| service RSS before / after | ${rssBefore.toFixed(1)} MiB / ${rssAfter.toFixed(1)} MiB |`);
    console.log(`| memory per idle stream | ${perStreamKiB.toFixed(1)} KiB |`);
    console.log(`| reference: one item, one subscriber, median (min-max) | ${percentile(reference, 50)} ms (${reference[0]}-${reference[reference.length - 1]}) |`);
    for (const [i, r] of rounds.entries()) console.log(`| broadcast ${i + 1}: received, p50, p99, max (from the insert's start) | ${r.received}, ${r.p50} ms, ${r.p99} ms, ${r.max} ms (insert + commit ${r.insertMs} ms; p99 after commit ${r.commitP99} ms) |`);
    console.log(`| worst p99 vs target 2,000 ms | ${worstP99} ms (${((worstP99 / 2_000) * 100).toFixed(0)}% of the budget); ${(worstP99 / Math.max(1, percentile(reference, 50))).toFixed(0)}x the reference |`);
    console.log(`| load average (1 min) at the end | ${load} on ${os.cpus().length} cores |`);
    if (rounds.some((r) => r.received < opened.connected) || worstP99 >= 2_000) process.exitCode = 1;
  } finally {
    await ask(clients, { cmd: 'close' }).catch(() => undefined);
    await service.close();
  }
}

await main();
