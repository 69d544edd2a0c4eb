import { arkeselProvidersFile, startCountingArkesel } from '../support/fake-vendors/counting-arkesel.ts';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { openDatabase, type Database } from '../../adapters/postgres/database.ts';
import { dedicatedDatabase, freePort, startProcess, until, untilHealthy, type StartedProcess } from '../support/processes.ts';

const GROUPS = 4;
const PER_GROUP = 25;
const GROUP_GAP_MS = 2_000;
const VENDOR_HOLD_MS = 1_000;


describe('process: scheduled messages survive a worker killed with SIGKILL mid-release (PostgreSQL)', function () {
  this.timeout(240_000);
  let db: Database;
  let database: Awaited<ReturnType<typeof dedicatedDatabase>> = null;

  before(async function () {
    database = await dedicatedDatabase(`nkra_sched_${process.pid}`);
    if (!database) this.skip();
  });
  after(async () => {
    await db?.close();
    await database?.drop();
  });

  it('delivers every scheduled message exactly once, none before its time, none lost, after a kill -9 and a new worker', async () => {
    const vendor = await startCountingArkesel(VENDOR_HOLD_MS);
    const dir = await mkdtemp(path.join(os.tmpdir(), 'nkra-sched-'));
    const providersFile = await arkeselProvidersFile(dir, 'sched-arkesel', vendor.url);
    const port = await freePort();
    const env = { DATABASE_URL: database!.url, DATA_DIR: dir, PROVIDERS_FILE: providersFile, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
    const first = startProcess('hosts/main.ts', env);
    let second: StartedProcess | null = null;
    try {
      await untilHealthy(first, port);
      const call = async (route: string, body: unknown, headers: Record<string, string> = {}) => {
        const res = await fetch(`http://127.0.0.1:${port}${route}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body), signal: AbortSignal.timeout(10_000) });
        return { status: res.status, data: (await res.json() as { data: any }).data };
      };
      const registered = (await call('/auth/register', { email: `sched-${port}@example.com`, password: 'a-good-passphrase', firstName: 'K', lastName: 'Mensah', organizationName: 'Sched Ltd' })).data;
      const organizationId = registered.organizations[0].id as string;
      const auth = { authorization: `Bearer ${registered.token}`, 'x-organization-id': organizationId };
      const key = (await call('/api-keys', { name: 'Live', isSandbox: false }, auth)).data.key as string;
      // Four groups due GROUP_GAP_MS apart, the first a few seconds from now: the kill lands between releases.
      const firstDue = Date.now() + 5_000;
      const dueOf = new Map<string, number>();
      for (let g = 0; g < GROUPS; g += 1) {
        const due = firstDue + g * GROUP_GAP_MS;
        const recipients = Array.from({ length: PER_GROUP }, (_, i) => `+23324${String(8_000_000 + g * 100 + i).padStart(7, '0')}`);
        for (const r of recipients) dueOf.set(r.replace(/\D/g, ''), due);
        const sent = await call('/messages/bulk', { async: true, sendAt: new Date(due).toISOString(), messages: recipients.map((to) => ({ channel: 'SMS', to, body: 'Scheduled, exactly once' })) }, { 'x-api-key': key });
        expect(sent.status).to.equal(202);
        expect(sent.data.every((l: { status: string }) => l.status === 'SCHEDULED')).to.equal(true);
      }
      const total = GROUPS * PER_GROUP;

      await until(() => vendor.state.received >= 1, 60_000, 'the first released message at the vendor');
      first.child.kill('SIGKILL');
      const killedAt = Date.now();
      await first.exited;
      second = startProcess('hosts/worker/main.ts', env);

      db = await openDatabase({ databaseUrl: database!.url, poolSize: 1 });
      const statuses = async () => Object.fromEntries((await db.em().execute<{ status: string; n: string }[]>(
        'select status, count(*) as n from messages where organization_id = ? group by status', [organizationId])).map((r) => [r.status, Number(r.n)]));
      const atKill = await statuses();
      await until(async () => (await statuses())['SENT'] === total, 150_000, `every message SENT (at the kill: ${JSON.stringify(atKill)})`);

      expect(await statuses()).to.deep.equal({ SENT: total });
      const accepted = [...dueOf.keys()].map((r) => vendor.state.accepted.get(r) ?? 0);
      expect(accepted).to.deep.equal(Array(total).fill(1));
      for (const [recipient, due] of dueOf) expect(vendor.state.firstAt.get(recipient)!, recipient).to.be.at.least(due);
      expect(killedAt).to.be.below(firstDue + (GROUPS - 1) * GROUP_GAP_MS); // the kill came before the last group was due
      const [ledger] = await db.em().execute<{ debits: string; charged: string }[]>(
        `select (select -sum(amount) from ledger_entries where organization_id = ? and kind = 'DEBIT') as debits,
                (select sum(cost) from messages where organization_id = ?) as charged`, [organizationId, organizationId]);
      expect(Number(ledger?.debits)).to.equal(Number(ledger?.charged)).and.to.equal(total * 3);
    } finally {
      first.child.kill('SIGKILL');
      second?.child.kill('SIGTERM');
      if (second) await second.exited;
      await vendor.close();
    }
  });
});
