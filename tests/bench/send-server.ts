import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Container } from 'inversify';
import { openDatabase } from '../../adapters/postgres/database.ts';
import { QUEUES } from '../../core/ports/job-queue.ts';
import { buildApiContainer, buildApp } from '../../hosts/api/container.ts';
import { listen, type RunningServer } from '../../hosts/api/server.ts';
import { loadConfig, type Config } from '../../hosts/config.ts';
import { openInfrastructure, type Infrastructure } from '../../hosts/infrastructure.ts';
import { createLogger, type Logger } from '../../hosts/logger.ts';
import { loadProviders, MESSAGING } from '../../hosts/messaging-bindings.ts';
import { buildWorkerContainer, WORKER } from '../../hosts/worker/container.ts';
import { startWorker } from '../../hosts/worker/worker.ts';

/** The bench database; BENCH_DATABASE names another (engineers benchmarking side by side). */
export const BENCH_DB = process.env['BENCH_DATABASE'] ?? 'nkra_bench';

/**
 * The bench configuration. The fraud screens stay on (every send still runs the recipient count and
 * the suppression lookup) but cannot refuse bench traffic: the recipient cap is raised, and
 * FRAUD_NEW_TENANT_DAYS=0 makes the bench tenants established ones, which skip the new-tenant
 * hourly count and cap (a freshly registered tenant would be capped at 200 messages an hour).
 */
export const BENCH_ENV = {
  LOG_LEVEL: 'silent', NODE_ENV: 'development', HOST: '127.0.0.1', PORT: '0',
  FRAUD_RECIPIENT_PER_HOUR: '1000000', FRAUD_NEW_TENANT_DAYS: '0', FRAUD_NEW_TENANT_PER_HOUR: '10000000',
} as const;

/** Busy share of all cores (0-1) between two os.cpus() samples: the server, PostgreSQL and the load generator together. */
export function machineBusy(before: os.CpuInfo[], after: os.CpuInfo[]): number {
  let busy = 0; let total = 0;
  after.forEach((cpu, i) => {
    const b = before[i]?.times ?? cpu.times;
    const t = cpu.times;
    const all = (x: os.CpuInfo['times']) => x.user + x.nice + x.sys + x.idle + x.irq;
    busy += all(t) - t.idle - (all(b) - b.idle);
    total += all(t) - all(b);
  });
  return total > 0 ? busy / total : 0;
}

export function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

/** Creates `nkra_bench` (or `name`) through a maintenance connection when missing; the test database is never touched. */
export async function ensureBenchDatabase(serverUrl: string, name: string = BENCH_DB): Promise<string> {
  const maintenance = await openDatabase({ databaseUrl: withDatabase(serverUrl, 'postgres'), poolSize: 1 });
  try {
    const found = await maintenance.em().execute<{ n: number }[]>('select 1 as n from pg_database where datname = ?', [name]);
    if (found.length === 0) await maintenance.em().execute(`create database ${name}`);
  } finally { await maintenance.close(); }
  return withDatabase(serverUrl, name);
}

/** The real API (buildApiContainer + buildApp) on PostgreSQL (`databaseUrl`) or on PGlite in a temp dir (null). */
export interface SendServer {
  base: string;
  config: Config;
  logger: Logger;
  infra: Infrastructure;
  container: Container;
  /** Empties the messages, their logs, the idempotency keys and the job queue (what a run starts from); tenants, keys and wallets stay. */
  resetMessages(): Promise<void>;
  /** Registers a new tenant and creates a sandbox API key allowed to send. */
  newSandboxKey(label: string): Promise<{ key: string; organizationId: string }>;
  /**
   * VACUUM ANALYZE of messages and jobs, what autovacuum does on tables in service (the test server
   * runs with autovacuum = off). Without it, dead job rows slow every job insert (1.4 ms a row at
   * 700,000 dead rows), and planned on the statistics of an empty table, a 100-recipient velocity count
   * scans the organization's whole hour (25-40 ms a request at 70,000 messages) instead of the recipient index.
   */
  vacuum(): Promise<void>;
  /** Messages of one organization by status. */
  statusCounts(organizationId: string): Promise<Record<string, number>>;
  /**
   * Messages of one organization still QUEUED or PENDING: the drains' completion check. It reads only
   * the shrinking remainder (an index range), so polling it does not compete with the worker the way
   * counting every message several times a second would.
   */
  undelivered(organizationId: string): Promise<number>;
  close(): Promise<void>;
}

export async function startSendServer(databaseUrl: string | null): Promise<SendServer> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'nkra-send-bench-'));
  const config = await loadConfig({ ...process.env, ...BENCH_ENV, DATA_DIR: dataDir, DATABASE_URL: databaseUrl ?? undefined });
  const logger = createLogger(config.logLevel);
  const infra = await openInfrastructure(config, logger, { superviseQueue: false });
  if (databaseUrl) await resetBenchData(infra);
  const container = buildApiContainer(config, logger, infra);
  await loadProviders(container);
  const server: RunningServer = await listen(buildApp(container), 0, '127.0.0.1', logger);
  const base = `http://127.0.0.1:${server.port}`;
  return {
    base, config, logger, infra, container,
    newSandboxKey: (label) => newSandboxKey(base, label),
    resetMessages: () => truncateMessages(infra),
    async vacuum() { await infra.database.em().execute('vacuum analyze messages, pgboss.job'); },
    async statusCounts(organizationId) {
      const rows = await infra.database.em().execute<{ status: string; n: string | number }[]>(
        'select status, count(*) as n from messages where organization_id = ? group by status', [organizationId]);
      return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
    },
    async undelivered(organizationId) {
      const [row] = await infra.database.em().execute<{ n: string | number }[]>(
        `select count(*) as n from messages where organization_id = ? and status in ('QUEUED', 'PENDING')`, [organizationId]);
      return Number(row?.n ?? 0);
    },
    async close() {
      await server.close(1_000);
      await infra.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Each run starts from an empty messages table, message logs and queue in the bench database, so runs compare.
 * The attempts and status events carry no foreign key to messages (partitioned logs, migration 0040): a
 * cascade from messages leaves them, and they grew by every run (3.2 million rows after 32 fair-share phases).
 */
async function resetBenchData(infra: Infrastructure): Promise<void> {
  await truncateMessages(infra);
  // Organizations' own vendor accounts of an earlier run (bench:vendors) hold credentials encrypted under that run's key.
  await infra.database.em().execute('delete from providers where organization_id is not null');
}

async function truncateMessages(infra: Infrastructure): Promise<void> {
  await infra.database.em().execute('truncate messages, message_attempts, message_status_events, idempotency_keys, pgboss.job cascade');
}

async function newSandboxKey(base: string, label: string): Promise<{ key: string; organizationId: string }> {
  const post = async (route: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${base}${route}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    const json = await res.json() as { data: any };
    if (!res.ok) throw new Error(`${route} answered ${res.status}: ${JSON.stringify(json)}`);
    return json.data;
  };
  const email = `send-bench-${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const registered = await post('/auth/register', { email, password: 'bench-passphrase-123', firstName: 'Bench', lastName: 'Mark', organizationName: `Bench ${label}` });
  const organizationId = registered.organizations[0].id as string;
  const created = await post('/api-keys', { name: `bench ${label}`, isSandbox: true, scopes: ['messages:send', 'messages:read'] },
    { authorization: `Bearer ${registered.token}`, 'x-organization-id': organizationId });
  return { key: created.key as string, organizationId };
}

export interface DrainResult {
  messages: number;
  enqueueSeconds: number;
  drainSeconds: number;
  messagesPerSecond: number;
  final: Record<string, number>;
  jobs: Record<string, number>;
  /** This process's (API idle, worker busy) CPU and the whole machine's, over the drain. */
  serverCpu: number;
  machineCpu: number;
}

/**
 * Worker drain: queues `n` sandbox messages through the bulk API (async, 100 per request) with no
 * worker running, then starts the worker host (buildWorkerContainer + startWorker, every handler, in
 * this process, sharing the database and pg-boss like `npm start`) and times until all n are DELIVERED.
 */
export async function measureDrain(server: SendServer, n: number, recipientBase: number, recipient: (i: number) => string): Promise<DrainResult> {
  await server.infra.boss.deleteAllJobs(QUEUES.notificationSend); // leftovers of the async phases
  const { key, organizationId } = await server.newSandboxKey('drain');
  const enqueueStarted = performance.now();
  let next = 0;
  const enqueue = async () => {
    while (next < n) {
      const from = next;
      next = Math.min(n, next + 100);
      const messages = Array.from({ length: next - from }, (_, i) => ({ channel: 'SMS', to: recipient(recipientBase + from + i), body: 'Bench drain message' }));
      const res = await fetch(`${server.base}/messages/bulk`, {
        method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body: JSON.stringify({ async: true, messages }),
      });
      if (res.status !== 202) throw new Error(`bulk enqueue answered ${res.status}: ${await res.text()}`);
    }
  };
  await Promise.all(Array.from({ length: 8 }, enqueue));
  const enqueueSeconds = (performance.now() - enqueueStarted) / 1000;
  const queued = (await server.statusCounts(organizationId))['QUEUED'] ?? 0;
  if (queued !== n) throw new Error(`expected ${n} QUEUED messages before the drain, found ${queued}`);
  await server.vacuum();

  const workerContainer = buildWorkerContainer(server.config, server.logger, server.infra, { runtime: server.container.get(MESSAGING.runtime) });
  const started = performance.now();
  const [cpuAtStart, machineAtStart] = [process.cpuUsage(), os.cpus()];
  const worker = await startWorker(server.infra.boss, workerContainer.getAll(WORKER.handlers), server.logger);
  let delivered = 0;
  const deadline = started + Math.max(60_000, n * 5); // fails rather than hangs when the worker stalls
  while (delivered < n && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    delivered = n - await server.undelivered(organizationId);
  }
  delivered = (await server.statusCounts(organizationId))['DELIVERED'] ?? 0;
  const drainSeconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuAtStart);
  const machineCpu = machineBusy(machineAtStart, os.cpus());
  await worker.stop();
  const jobs = await server.infra.database.em().execute<{ state: string; n: string | number }[]>(
    'select state, count(*) as n from pgboss.job where name = ? group by state', [QUEUES.notificationSend]);
  return {
    messages: n, enqueueSeconds, drainSeconds, messagesPerSecond: Math.round(delivered / drainSeconds),
    final: await server.statusCounts(organizationId), jobs: Object.fromEntries(jobs.map((r) => [r.state, Number(r.n)])),
    serverCpu: (cpu.user + cpu.system) / 1e6 / drainSeconds, machineCpu,
  };
}
