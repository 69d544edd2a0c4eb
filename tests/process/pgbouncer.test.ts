import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { dedicatedDatabase, freePort, startProcess, until, untilHealthy, type StartedProcess } from '../support/processes.ts';

/** The slice of `pg` used here (`pg` ships no types). */
interface PgClient { connect(): Promise<void>; query(text: string): Promise<{ rows: Array<Record<string, string>> }>; end(): Promise<void> }
const { Client } = (await import('pg' as string)).default as { Client: new (config: object) => PgClient };

const PGBOUNCER = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer', '/usr/local/bin/pgbouncer'].find((p) => existsSync(p));

/** PgBouncer's admin console figures for `database` (SHOW STATS: simple-protocol queries only). */
async function bouncerStats(port: number, database: string): Promise<{ xacts: number; queries: number }> {
  const client = new Client({ host: '127.0.0.1', port, user: 'postgres', database: 'pgbouncer', connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    const { rows } = await client.query('SHOW STATS');
    const row = rows.find((r) => r['database'] === database);
    return { xacts: Number(row?.['total_xact_count'] ?? 0), queries: Number(row?.['total_query_count'] ?? 0) };
  } finally { await client.end(); }
}

/**
 * `npm run api` and `npm run worker` with DATABASE_URL through a real PgBouncer in transaction mode
 * (docs/operations.md, "Sizing"): the version Debian 12 ships (1.18) cannot route named prepared
 * statements, so DATABASE_PREPARED_STATEMENTS=false; the inbox's LISTEN goes straight to PostgreSQL
 * (DATABASE_LISTEN_URL). Sends, the worker's deliveries (pg-boss), the delivery-log list and its
 * functions all run through the pooler. Skipped where no pgbouncer binary is installed
 * (`apt-get install pgbouncer`).
 */
describe('process: API and worker behind PgBouncer in transaction mode (PostgreSQL)', function () {
  this.timeout(180_000);
  let database: Awaited<ReturnType<typeof dedicatedDatabase>> = null;
  let bouncer: ChildProcess | null = null;
  let bouncerPort = 0;
  let dir = '';

  before(async function () {
    if (!PGBOUNCER) this.skip();
    database = await dedicatedDatabase(`nkra_pgbouncer_${process.pid}`);
    if (!database) this.skip();
    dir = await mkdtemp(path.join(os.tmpdir(), 'nkra-pgbouncer-'));
    await chmod(dir, 0o777); // PgBouncer refuses to run as root: it runs as postgres and writes its log here
    bouncerPort = await freePort();
    const target = new URL(database!.url);
    await writeFile(path.join(dir, 'userlist.txt'), '"postgres" ""\n');
    await writeFile(path.join(dir, 'pgbouncer.ini'), [
      '[databases]', `* = host=${target.hostname} port=${target.port || 5432}`,
      '[pgbouncer]', 'listen_addr = 127.0.0.1', `listen_port = ${bouncerPort}`, 'unix_socket_dir =',
      'auth_type = trust', `auth_file = ${path.join(dir, 'userlist.txt')}`, 'admin_users = postgres',
      'pool_mode = transaction', 'default_pool_size = 8', 'max_client_conn = 200',
      // The driver sends the session timeouts at connection start; a transaction pooler cannot keep them per client.
      'ignore_startup_parameters = extra_float_digits,statement_timeout,idle_in_transaction_session_timeout',
      `logfile = ${path.join(dir, 'pgbouncer.log')}`, `pidfile = ${path.join(dir, 'pgbouncer.pid')}`, '',
    ].join('\n'));
    await chmod(path.join(dir, 'pgbouncer.ini'), 0o644);
    await chmod(path.join(dir, 'userlist.txt'), 0o644);
    const asRoot = process.getuid?.() === 0;
    bouncer = spawn(PGBOUNCER!, [...(asRoot ? ['-u', 'postgres'] : []), path.join(dir, 'pgbouncer.ini')], { stdio: 'ignore' });
    await until(() => bouncerStats(bouncerPort, 'pgbouncer').then(() => true, () => false), 15_000, 'PgBouncer to listen');
  });
  after(async () => {
    bouncer?.kill('SIGTERM');
    if (bouncer && bouncer.exitCode === null) await new Promise((r) => bouncer!.once('exit', r));
    await database?.drop();
  });

  it('sends, delivers and lists through the pooler, with named prepared statements off', async () => {
    const port = await freePort();
    const url = new URL(database!.url);
    const pooled = `postgres://postgres@127.0.0.1:${bouncerPort}${url.pathname}`;
    const env = {
      DATABASE_URL: pooled, DATABASE_LISTEN_URL: database!.url, DATABASE_PREPARED_STATEMENTS: 'false', DATABASE_POOL_SIZE: '5',
      DATA_DIR: dir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info',
    };
    const api = startProcess('hosts/api/main.ts', env);
    let worker: StartedProcess | null = null;
    try {
      await untilHealthy(api, port, 90_000);
      worker = startProcess('hosts/worker/main.ts', env);
      await until(() => worker!.output().includes('worker started'), 90_000, 'the worker to start');
      const base = `http://127.0.0.1:${port}`;
      const call = async (method: string, route: string, body?: unknown, headers: Record<string, string> = {}) => {
        const res = await fetch(`${base}${route}`, { method, headers: { 'content-type': 'application/json', ...headers }, body: body === undefined ? null : JSON.stringify(body), signal: AbortSignal.timeout(10_000) });
        return { status: res.status, body: await res.json() as { data: any } };
      };
      const registered = (await call('POST', '/auth/register', { email: `bouncer-${port}@example.com`, password: 'a-good-passphrase', firstName: 'A', lastName: 'B', organizationName: 'Pooled Ltd' })).body.data;
      const auth = { authorization: `Bearer ${registered.token}`, 'x-organization-id': registered.organizations[0].id };
      const ids: string[] = [];
      for (let i = 0; i < 20; i++) {
        const sent = await call('POST', '/messages/send', { channel: 'IN_APP', to: `user-${i}`, body: `pooled ${i}`, async: true }, { ...auth, 'idempotency-key': `pooled-${port}-${i}` });
        expect(sent.status, JSON.stringify(sent.body)).to.equal(202);
        ids.push(sent.body.data.id);
      }
      await until(async () => {
        const logs = await call('GET', '/delivery-logs?limit=50', undefined, auth);
        return logs.status === 200 && logs.body.data.total === 20 && logs.body.data.items.every((m: { status: string }) => m.status === 'DELIVERED');
      }, 60_000, 'the worker to deliver the 20 messages');
      const logs = await call('GET', '/delivery-logs?limit=50', undefined, auth);
      expect(logs.body.data.items.map((m: { id: string }) => m.id).sort()).to.deep.equal([...ids].sort());
      const stats = await bouncerStats(bouncerPort, url.pathname.slice(1));
      expect(stats.xacts, 'transactions went through PgBouncer').to.be.greaterThan(50);
      const output = api.output() + worker.output();
      expect(output).not.to.match(/prepared statement .* (does not exist|already exists)/);
      expect(output).not.to.match(/"level":(50|60)/);
    } finally {
      api.child.kill('SIGTERM');
      worker?.child.kill('SIGTERM');
      await Promise.all([api.exited, worker?.exited]);
    }
  });
});
