import { arkeselProvidersFile, startCountingArkesel } from '../support/fake-vendors/counting-arkesel.ts';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { openDatabase, type Database } from '../../adapters/postgres/database.ts';
import { startFakeArkesel, type FakeArkesel } from '../support/fake-vendors/arkesel.ts';
import { dedicatedDatabase, freePort, startProcess, until, untilHealthy, type StartedProcess } from '../support/processes.ts';

const MESSAGES = 300;
const VENDOR_HOLD_MS = 150;
/** The API key cache's TTL (adapters/cache/cached-api-key-lookup.ts): how late another process may see a revocation. */
const API_KEY_CACHE_TTL_MS = 10_000;
/** A message lookup with an API key: 404 while the key authenticates, 401 once it is revoked. */
const PROBE = '/messages/00000000-0000-7000-8000-000000000000';


/**
 * `npm run api` x2 and `npm run worker` x2 on one PostgreSQL, each on its own port and nothing in
 * front (docs/operations.md, "Several processes"): no message lost or sent twice when a worker is
 * killed mid-drain; the login rate limit, API key revocations and provider changes hold across processes.
 */
describe('process: two API and two worker processes on one PostgreSQL', function () {
  this.timeout(240_000);
  let db: Database;
  let database: Awaited<ReturnType<typeof dedicatedDatabase>> = null;
  const started: StartedProcess[] = [];

  before(async function () {
    database = await dedicatedDatabase(`nkra_scale_out_${process.pid}`);
    if (!database) this.skip();
  });
  after(async () => {
    for (const p of started) p.child.kill('SIGTERM');
    await Promise.all(started.map((p) => p.exited));
    await db?.close();
    await database?.drop();
  });

  it('delivers every message exactly once when one of two workers is killed mid-drain; limits, keys and providers are shared', async () => {
    const vendor = await startCountingArkesel(VENDOR_HOLD_MS);
    const second: FakeArkesel = await startFakeArkesel({ apiKey: 'scale-second-key' });
    const dir = await mkdtemp(path.join(os.tmpdir(), 'nkra-scale-'));
    const providersFile = await arkeselProvidersFile(dir, 'scale-arkesel', vendor.url);
    const base = {
      DATABASE_URL: database!.url, DATA_DIR: dir, PROVIDERS_FILE: providersFile, HOST: '127.0.0.1', LOG_LEVEL: 'info',
      WORKER_CONCURRENCY: '10', TRIAL_CREDIT_GHS: '100', FRAUD_NEW_TENANT_DAYS: '0', LOGIN_LIMIT_PER_EMAIL: '4', DATABASE_POOL_SIZE: '5',
      // The delivery lease stays 30 s (messaging-bindings.ts), so the killed worker's claims free soon; 5 s covers the
      // held answers of the surviving worker (hold, kill, the wait below) without timing them out.
      PROVIDER_TIMEOUT_MS: '5000',
    };
    const ports = [await freePort(), await freePort()];
    try {
      const apis = ports.map((port) => startProcess('hosts/api/main.ts', { ...base, PORT: String(port) }));
      started.push(...apis);
      await Promise.all(apis.map((api, i) => untilHealthy(api, ports[i]!)));
      const call = async (i: number, method: string, route: string, body?: unknown, headers: Record<string, string> = {}) => {
        const res = await fetch(`http://127.0.0.1:${ports[i]}${route}`, {
          method, headers: { 'content-type': 'application/json', ...headers }, signal: AbortSignal.timeout(15_000), ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        const text = await res.text();
        return { status: res.status, data: (text ? JSON.parse(text) : {}).data };
      };
      const email = `scale-${ports[0]}@example.com`;
      const registered = (await call(0, 'POST', '/auth/register', { email, password: 'a-good-passphrase', firstName: 'S', lastName: 'O', organizationName: 'Scale Ltd' })).data;
      const organizationId = registered.organizations[0].id as string;
      const auth = { authorization: `Bearer ${registered.token}`, 'x-organization-id': organizationId };
      const key = (await call(0, 'POST', '/api-keys', { name: 'Live', isSandbox: false }, auth)).data.key as string;

      // Workers start after the send is queued, so both drain the same backlog.
      const recipients = Array.from({ length: MESSAGES }, (_, i) => `+23324${String(5_000_000 + i).padStart(7, '0')}`);
      for (let i = 0; i < MESSAGES; i += 100) {
        const sent = await call(i % 200 === 0 ? 0 : 1, 'POST', '/messages/bulk', { async: true, messages: recipients.slice(i, i + 100).map((to) => ({ channel: 'SMS', to, body: 'Exactly once' })) }, { 'x-api-key': key });
        expect(sent.status).to.equal(202);
      }
      const workers = [0, 1].map(() => startProcess('hosts/worker/main.ts', { ...base, PORT: '0' }));
      started.push(...workers);
      await until(() => vendor.state.accepted.size >= MESSAGES / 5, 60_000, 'the drain to start');
      // The kill lands while sends are in flight at the vendor and after every send it confirmed was recorded.
      // A kill between a vendor's confirmation and its commit would send that message again on recovery: no
      // vendor API here takes an idempotency key, so that window (milliseconds) is documented, not tested
      // (docs/operations.md, "Several processes").
      vendor.hold();
      await new Promise((r) => setTimeout(r, 1_500));
      workers[0]!.child.kill('SIGKILL');
      await workers[0]!.exited;
      // The child's exit event can reach this process before the vendor's sockets see the dead worker's
      // connections close: released then, its held sends would be answered into sockets not yet marked
      // destroyed and counted as confirmed (then sent again by the survivor). Let the close events land first.
      await new Promise((r) => setTimeout(r, 500));
      vendor.release();
      const killedAt = Date.now();
      expect(vendor.state.accepted.size, 'killed mid-drain').to.be.below(MESSAGES);

      // Meanwhile: the login rate limit counts failures from both API processes together (4 allowed per email and IP).
      // (Fixed 15-minute windows: not across a window boundary.)
      const intoWindow = Date.now() % 900_000;
      if (intoWindow > 890_000) await new Promise((r) => setTimeout(r, 900_000 - intoWindow + 100));
      for (const i of [0, 1, 0, 1]) expect((await call(i, 'POST', '/auth/login', { email, password: 'wrong-passphrase' })).status).to.equal(401);
      expect((await call(1, 'POST', '/auth/login', { email, password: 'wrong-passphrase' })).status).to.equal(429);
      expect((await call(0, 'POST', '/auth/login', { email, password: 'a-good-passphrase' })).status).to.equal(429);

      // An API key revoked on one process is refused by the other within the cache TTL.
      expect((await call(1, 'GET', PROBE, undefined, { 'x-api-key': key })).status, 'key accepted').to.equal(404); // authenticated (cached on process 2), no such message
      const keys = (await call(0, 'GET', '/api-keys', undefined, auth)).data as Array<{ id: string }>;
      expect((await call(0, 'DELETE', `/api-keys/${keys[0]!.id}`, undefined, auth)).status, 'revoked').to.be.oneOf([200, 204]);
      const revokedAt = Date.now();
      expect((await call(0, 'GET', PROBE, undefined, { 'x-api-key': key })).status).to.equal(401); // at once on the revoking process
      await until(async () => (await call(1, 'GET', PROBE, undefined, { 'x-api-key': key })).status === 401, API_KEY_CACHE_TTL_MS + 5_000, 'the other API process to refuse the revoked key');
      expect(Date.now() - revokedAt).to.be.below(API_KEY_CACHE_TTL_MS + 2_000);

      // A provider an administrator adds on one API process routes the other's synchronous sends within 5 s.
      db = await openDatabase({ databaseUrl: database!.url, poolSize: 1 });
      await db.em().execute(`update users set platform_role = 'PLATFORM_SUPER_ADMIN' where id = ?`, [registered.user.id]);
      const created = await call(0, 'POST', '/admin/providers', {
        name: 'scale-ci', vendor: 'arkesel-sms', channel: 'SMS', priority: 1, countries: ['CI'], settings: { senderId: 'NKRA', baseUrl: second.url }, credentials: { apiKey: 'scale-second-key' },
      }, { authorization: `Bearer ${registered.token}` });
      expect(created.status).to.equal(201);
      const key2 = (await call(1, 'POST', '/api-keys', { name: 'Live 2', isSandbox: false }, auth)).data.key as string;
      await until(async () => {
        await call(1, 'POST', '/messages/send', { channel: 'SMS', to: '+2250701234567', body: 'Routed by the other process' }, { 'x-api-key': key2 });
        return second.accepted.length > 0;
      }, 5_000, 'the other API process to route to the new provider');

      // Every message SENT, each accepted by the vendor exactly once, though the killed worker's claims had to expire first.
      const statuses = async () => Object.fromEntries((await db.em().execute<{ status: string; n: string }[]>(
        `select status, count(*) as n from messages where organization_id = ? and recipient like '+23324%' group by status`, [organizationId])).map((r) => [r.status, Number(r.n)]));
      await until(async () => (await statuses())['SENT'] === MESSAGES, 120_000, 'every message SENT');
      expect(await statuses()).to.deep.equal({ SENT: MESSAGES });
      expect(recipients.map((r) => vendor.state.accepted.get(r.replace(/\D/g, '')) ?? 0)).to.deep.equal(Array(MESSAGES).fill(1));
      const [ledger] = await db.em().execute<{ debits: string; charged: string }[]>(
        `select (select -sum(amount) from ledger_entries where organization_id = ? and kind = 'DEBIT') as debits,
                (select sum(cost) from messages where organization_id = ?) as charged`, [organizationId, organizationId]);
      expect(Number(ledger?.debits)).to.equal(Number(ledger?.charged));
      expect(Date.now() - killedAt).to.be.below(120_000);
      // The surviving worker logged the recovery of the killed one's claims (RecoverAbandonedDeliveries), unless none was in flight.
      expect(workers[1]!.child.exitCode).to.equal(null);
    } finally {
      await vendor.close();
      await second.close();
    }
  });
});
