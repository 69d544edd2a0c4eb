import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { openDatabase, type Database } from '../../adapters/postgres/database.ts';
import { startFakeArkesel, type FakeArkesel } from '../support/fake-vendors/arkesel.ts';
import { dedicatedDatabase, freePort, startProcess, until, untilHealthy, type StartedProcess } from '../support/processes.ts';

/**
 * `npm run api` and `npm run worker` as separate processes on one PostgreSQL: a provider an
 * administrator adds through the API reaches the running worker within 5 s, without a restart, and the
 * worker then delivers through it. Its credential is in no line either process logged.
 */
describe('process: a provider change reaches a running worker process within 5 s (PostgreSQL)', function () {
  this.timeout(120_000);
  let db: Database;
  let url: string;
  let database: Awaited<ReturnType<typeof dedicatedDatabase>> = null;

  before(async function () {
    database = await dedicatedDatabase(`nkra_providers_${process.pid}`);
    if (!database) this.skip();
    url = database.url;
  });
  after(async () => {
    await db?.close();
    await database?.drop();
  });

  it('adds an Arkesel provider through the API; the other process routes to it within 5 s', async () => {
    const secret = `propagation-key-${process.pid}-${Date.now()}`;
    const vendor: FakeArkesel = await startFakeArkesel({ apiKey: secret });
    const dir = await mkdtemp(path.join(os.tmpdir(), 'nkra-propagation-'));
    const port = await freePort();
    const env = { DATABASE_URL: url, DATA_DIR: dir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info' };
    const api = startProcess('hosts/api/main.ts', env);
    let worker: StartedProcess | null = null;
    try {
      await untilHealthy(api, port);
      worker = startProcess('hosts/worker/main.ts', env);
      await until(() => worker!.output().includes('worker started'), 60_000, 'the worker to start');
      const call = async (method: string, route: string, body: unknown, headers: Record<string, string> = {}) => {
        const res = await fetch(`http://127.0.0.1:${port}${route}`, { method, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body), signal: AbortSignal.timeout(10_000) });
        return { status: res.status, text: await res.text() };
      };
      const registered = JSON.parse((await call('POST', '/auth/register', { email: `ops-${port}@example.com`, password: 'a-good-passphrase', firstName: 'O', lastName: 'P', organizationName: 'Ops Ltd' })).text).data;
      db = await openDatabase({ databaseUrl: url, poolSize: 1 });
      await db.em().execute(`update users set platform_role = 'PLATFORM_SUPER_ADMIN' where id = ?`, [registered.user.id]);
      const auth = { authorization: `Bearer ${registered.token}`, 'x-organization-id': registered.organizations[0].id };
      const key = JSON.parse((await call('POST', '/api-keys', { name: 'Live', isSandbox: false }, auth)).text).data.key as string;

      const created = await call('POST', '/admin/providers', {
        name: 'arkesel-ci', vendor: 'arkesel-sms', channel: 'SMS', priority: 1, countries: ['CI'], settings: { senderId: 'NKRA', baseUrl: vendor.url }, credentials: { apiKey: secret },
      }, { authorization: `Bearer ${registered.token}` });
      expect(created.status, created.text).to.equal(201);
      const changedAt = Date.now();
      await until(() => worker!.output().includes('providers reloaded'), 5_000, 'the worker to reload its providers');
      const reloadedInMs = Date.now() - changedAt;
      expect(reloadedInMs).to.be.below(5_000);

      const sent = await call('POST', '/messages/send', { channel: 'SMS', to: '+2250701234567', body: 'Routed by the worker', async: true }, { 'x-api-key': key });
      expect(sent.status, sent.text).to.equal(202);
      await until(() => vendor.received.some((r) => r.path === '/api/v2/sms/send'), 10_000, 'the vendor to receive the send');
      expect(api.output() + worker.output()).to.not.include(secret);
    } finally {
      worker?.child.kill('SIGTERM');
      api.child.kill('SIGTERM');
      await Promise.all([worker?.exited, api.exited]);
      await vendor.close();
    }
  });
});
