import { arkeselProvidersFile, startCountingArkesel } from '../support/fake-vendors/counting-arkesel.ts';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { openDatabase, type Database } from '../../adapters/postgres/database.ts';
import { dedicatedDatabase, freePort, startProcess, until, untilHealthy, type StartedProcess } from '../support/processes.ts';

const MESSAGES = 20;
const VENDOR_HOLD_MS = 3_000;


describe('process: a worker killed with SIGKILL mid-delivery (PostgreSQL)', function () {
  this.timeout(180_000);
  let db: Database;
  let url: string;
  let database: Awaited<ReturnType<typeof dedicatedDatabase>> = null;

  before(async function () {
    database = await dedicatedDatabase(`nkra_crash_${process.pid}`);
    if (!database) this.skip();
    url = database.url;
  });
  after(async () => {
    await db?.close();
    await database?.drop();
  });

  it('has every message of the batch in flight taken over and delivered within 60 s, each accepted by the vendor exactly once', async () => {
    const vendor = await startCountingArkesel(VENDOR_HOLD_MS);
    const dir = await mkdtemp(path.join(os.tmpdir(), 'nkra-crash-'));
    const providersFile = await arkeselProvidersFile(dir, 'crash-arkesel', vendor.url);
    const port = await freePort();
    const env = { DATABASE_URL: url, DATA_DIR: dir, PROVIDERS_FILE: providersFile, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
    const first = startProcess('hosts/main.ts', env);
    let second: StartedProcess | null = null;
    try {
      await untilHealthy(first, port);
      const call = async (route: string, body: unknown, headers: Record<string, string> = {}) => {
        const res = await fetch(`http://127.0.0.1:${port}${route}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body), signal: AbortSignal.timeout(10_000) });
        return (await res.json() as { data: any }).data;
      };
      // A new organization sends on its trial credit (GHS 5 covers the 20 SMS).
      const registered = await call('/auth/register', { email: `crash-${port}@example.com`, password: 'a-good-passphrase', firstName: 'K', lastName: 'Mensah', organizationName: 'Crash Ltd' });
      const auth = { authorization: `Bearer ${registered.token}`, 'x-organization-id': registered.organizations[0].id };
      const key = (await call('/api-keys', { name: 'Live', isSandbox: false }, auth)).key as string;
      const recipients = Array.from({ length: MESSAGES }, (_, i) => `+23324${String(7_000_000 + i).padStart(7, '0')}`);
      await call('/messages/bulk', { async: true, idempotencyKey: 'crash-batch', messages: recipients.map((to) => ({ channel: 'SMS', to, body: 'Delivered exactly once' })) }, { 'x-api-key': key });

      await until(() => vendor.state.inFlight >= MESSAGES / 2, 30_000, 'sends in flight at the vendor');
      first.child.kill('SIGKILL');
      const killedAt = Date.now();
      await first.exited;
      second = startProcess('hosts/worker/main.ts', env);

      db = await openDatabase({ databaseUrl: url, poolSize: 1 });
      const statuses = async () => Object.fromEntries((await db.em().execute<{ status: string; n: string }[]>(
        'select status, count(*) as n from messages where organization_id = ? group by status', [registered.organizations[0].id])).map((r) => [r.status, Number(r.n)]));
      await until(async () => (await statuses())['SENT'] === MESSAGES, 90_000, 'every message SENT');
      const recoveredInMs = Date.now() - killedAt;

      expect(recoveredInMs, `recovered in ${recoveredInMs} ms`).to.be.below(60_000);
      expect(await statuses()).to.deep.equal({ SENT: MESSAGES });
      expect(recipients.map((r) => vendor.state.accepted.get(r.replace(/\D/g, '')) ?? 0)).to.deep.equal(Array(MESSAGES).fill(1));
      expect(vendor.state.received).to.be.above(MESSAGES); // the cut-off sends were submitted again
      const [ledger] = await db.em().execute<{ debits: string; charged: string }[]>(
        `select (select -sum(amount) from ledger_entries where organization_id = ? and kind = 'DEBIT') as debits,
                (select sum(cost) from messages where organization_id = ?) as charged`, [registered.organizations[0].id, registered.organizations[0].id]);
      expect(Number(ledger?.debits)).to.equal(Number(ledger?.charged)).and.to.equal(MESSAGES * 3);
    } finally {
      first.child.kill('SIGKILL');
      second?.child.kill('SIGTERM');
      if (second) await second.exited;
      await vendor.close();
    }
  });
});
