import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase, type Database } from '../../adapters/postgres/database.ts';
import { BENCH_ENV } from './send-server.ts';

/**
 * The service exactly as `npm start` runs it (`node hosts/main.ts`: API and worker in one process) on
 * the bench's PostgreSQL database, in a child process of its own, plus what the bench needs around it:
 * tenants registered, API keys created and wallets topped up through the public API (the sandbox
 * payment gateway's checkout, as a new user does), and a database connection of the bench's own for
 * the counts after each phase.
 */
export interface BenchService {
  base: string;
  pid: number;
  db: Database;
  /** A new tenant (owner token), a live and a sandbox API key, and a wallet of `topUpGhs` paid through the sandbox checkout. */
  newTenant(label: string, topUpGhs?: number): Promise<BenchTenant>;
  /** Messages of these organizations by status. */
  statusCounts(organizationIds: readonly string[]): Promise<Record<string, number>>;
  /** Balance, sum of the ledger and sum of the messages' costs of one organization (pesewas), for the money check. */
  money(organizationId: string): Promise<{ balance: number; ledger: number; charged: number; debits: number }>;
  vacuum(): Promise<void>;
  /** CPU seconds the service process used so far (user + system). */
  cpuSeconds(): number;
  close(): Promise<void>;
}

export interface BenchTenant {
  organizationId: string;
  /** Dashboard credentials: Bearer token + X-Organization-Id. */
  jwt: Record<string, string>;
  live: Record<string, string>;
  sandbox: Record<string, string>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function waitForHealth(base: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode} while starting`);
    try {
      const res = await fetch(`${base}/health`, { signal: AbortSignal.timeout(1_000) });
      if (res.status === 200 || res.status === 503) return;
    } catch { /* not listening yet */ }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the service did not answer /health within ${timeoutMs} ms`);
}

export async function startBenchService(databaseUrl: string, extraEnv: Record<string, string> = {}): Promise<BenchService> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'nkra-send-service-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const main = fileURLToPath(new URL('../../hosts/main.ts', import.meta.url));
  // BENCH_SERVICE_NODE_ARGS: Node flags for the service, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` (profile written at exit).
  const nodeArgs = (process.env['BENCH_SERVICE_NODE_ARGS'] ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, main], {
    env: { ...process.env, ...BENCH_ENV, LOG_LEVEL: 'error', PORT: String(port), PUBLIC_URL: base, DATA_DIR: dataDir, DATABASE_URL: databaseUrl,
      PAYMENT_GATEWAY: 'sandbox', ...extraEnv },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  await waitForHealth(base, child, 60_000);
  const db = await openDatabase({ databaseUrl, poolSize: 2 });
  await db.em().execute('truncate messages, idempotency_keys, pgboss.job cascade');
  const pid = child.pid!;
  return {
    base, pid, db,
    newTenant: (label, topUpGhs = 50_000) => newTenant(base, label, topUpGhs),
    async statusCounts(organizationIds) {
      const rows = await db.em().execute<{ status: string; n: string | number }[]>(
        'select status, count(*) as n from messages where organization_id = any(?::text[]) group by status', [`{${organizationIds.join(',')}}`]);
      return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
    },
    async money(organizationId) {
      const [row] = await db.em().execute<{ balance: string; ledger: string; charged: string; debits: string }[]>(
        `select (select balance from wallets where organization_id = ?) as balance,
                (select coalesce(sum(amount), 0) from ledger_entries where organization_id = ?) as ledger,
                (select coalesce(sum(cost), 0) from messages where organization_id = ?) as charged,
                (select coalesce(-sum(amount), 0) from ledger_entries where organization_id = ? and kind = 'DEBIT') as debits`,
        [organizationId, organizationId, organizationId, organizationId]);
      return { balance: Number(row?.balance), ledger: Number(row?.ledger), charged: Number(row?.charged), debits: Number(row?.debits) };
    },
    async vacuum() { await db.em().execute('vacuum analyze messages, idempotency_keys, ledger_entries, pgboss.job'); },
    cpuSeconds() {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (100 Hz)
    },
    async close() {
      await db.close();
      child.kill('SIGTERM');
      await new Promise((resolve) => { if (child.exitCode !== null) resolve(null); else child.once('exit', resolve); });
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Registers a tenant on the API at `base`, creates its keys and pays a top-up through the sandbox checkout. */
export async function newTenant(base: string, label: string, topUpGhs: number): Promise<BenchTenant> {
  const call = async (method: string, route: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${base}${route}`, { method, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body), signal: AbortSignal.timeout(30_000) });
    const json = await res.json() as { data: any };
    if (!res.ok) throw new Error(`${route} answered ${res.status}: ${JSON.stringify(json)}`);
    return json.data;
  };
  const email = `send-bench-${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const registered = await call('POST', '/auth/register', { email, password: 'bench-passphrase-123', firstName: 'Bench', lastName: 'Mark', organizationName: `Bench ${label}` });
  const organizationId = registered.organizations[0].id as string;
  const jwt = { authorization: `Bearer ${registered.token}`, 'x-organization-id': organizationId };
  const key = async (isSandbox: boolean) => (await call('POST', '/api-keys', { name: `bench ${label} ${isSandbox ? 'sandbox' : 'live'}`, isSandbox, scopes: ['messages:send', 'messages:read', 'verify:send'] }, jwt)).key as string;
  const [live, sandbox] = [await key(false), await key(true)];
  if (topUpGhs > 0) {
    const payment = await call('POST', '/billing/top-up', { amount: topUpGhs, paymentMethod: 'mobile_money' }, jwt);
    const paid = await fetch(`${base}/billing/sandbox-checkout/${payment.reference}`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'outcome=success', redirect: 'manual', signal: AbortSignal.timeout(30_000),
    });
    if (paid.status >= 400) throw new Error(`sandbox checkout answered ${paid.status}`);
    const wallet = await fetch(`${base}/billing/wallet`, { headers: jwt }).then((r) => r.json()) as { data: { balance: number } };
    if (wallet.data.balance < topUpGhs) throw new Error(`the top-up did not reach the wallet: ${JSON.stringify(wallet.data)}`);
  }
  return { organizationId, jwt, live: { 'x-api-key': live }, sandbox: { 'x-api-key': sandbox } };
}
