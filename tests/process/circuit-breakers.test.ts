import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { openDatabase, type Database } from '../../adapters/postgres/database.ts';
import { startCountingArkesel, type CountingVendor } from '../support/fake-vendors/counting-arkesel.ts';
import { dedicatedDatabase, freePort, startProcess, until, untilHealthy, type StartedProcess } from '../support/processes.ts';

const MESSAGES = 200;
const THRESHOLD = 5; // DEFAULT_BREAKER_POLICY.threshold
const CONCURRENCY = 5;
/** The providers' maxConcurrency: the sends of one process in flight at a vendor at once. */
const VENDOR_CONCURRENCY = 5;
const COOLDOWN_MS = 6_000;

/**
 * Circuit breakers are per provider and per process, on purpose (docs/failover.md, docs/operations.md
 * "Several processes"). With `npm run worker` x2 against a dead primary vendor: each worker opens its own
 * circuit after a bounded number of failed sends (at most the threshold plus the sends already in flight,
 * per process, plus one half-open trial per cooldown), every message fails over to the secondary exactly
 * once; after the vendor recovers each worker's circuit closes again on its own trial and the primary
 * takes the traffic back.
 */
describe('process: circuit breakers across two worker processes', function () {
  this.timeout(180_000);
  let db: Database | undefined;
  let database: Awaited<ReturnType<typeof dedicatedDatabase>> = null;
  const started: StartedProcess[] = [];
  const vendors: CountingVendor[] = [];

  before(async function () {
    database = await dedicatedDatabase(`nkra_circuits_${process.pid}`);
    if (!database) this.skip();
  });
  after(async () => {
    for (const p of started) p.child.kill('SIGTERM');
    await Promise.all(started.map((p) => p.exited));
    await Promise.all(vendors.map((v) => v.close()));
    await db?.close();
    await database?.drop();
  });

  it('opens each worker\'s circuit after a bounded number of failures, fails every message over once, and closes both after the vendor recovers', async () => {
    const primary = await startCountingArkesel(10);
    const secondary = await startCountingArkesel(10);
    vendors.push(primary, secondary);
    primary.fail();
    const dir = await mkdtemp(path.join(os.tmpdir(), 'nkra-circuits-'));
    const providersFile = path.join(dir, 'providers.json');
    const provider = (name: string, priority: number, url: string) => ({
      name, vendor: 'arkesel-sms', channel: 'SMS', priority, countries: ['*'], settings: { senderId: 'NKRA', baseUrl: url, maxConcurrency: String(VENDOR_CONCURRENCY) }, credentials: { apiKey: `${name}-key` },
    });
    await writeFile(providersFile, JSON.stringify({ providers: [provider('cb-primary', 1, primary.url), provider('cb-secondary', 2, secondary.url)] }));
    const base = {
      DATABASE_URL: database!.url, DATA_DIR: dir, PROVIDERS_FILE: providersFile, HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATABASE_POOL_SIZE: '5',
      WORKER_CONCURRENCY: String(CONCURRENCY), TRIAL_CREDIT_GHS: '100', FRAUD_NEW_TENANT_DAYS: '0', PROVIDER_TIMEOUT_MS: '2000',
      PROVIDER_CIRCUIT_COOLDOWN_MS: String(COOLDOWN_MS),
    };
    const apiPort = await freePort();
    const api = startProcess('hosts/api/main.ts', { ...base, PORT: String(apiPort) });
    started.push(api);
    await untilHealthy(api, apiPort);
    const call = async (method: string, route: string, body?: unknown, headers: Record<string, string> = {}) => {
      const res = await fetch(`http://127.0.0.1:${apiPort}${route}`, {
        method, headers: { 'content-type': 'application/json', ...headers }, signal: AbortSignal.timeout(15_000), ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      return { status: res.status, data: (text ? JSON.parse(text) : {}).data };
    };
    const registered = (await call('POST', '/auth/register', { email: `circuits-${apiPort}@example.com`, password: 'a-good-passphrase', firstName: 'C', lastName: 'B', organizationName: 'Circuits Ltd' })).data;
    const organizationId = registered.organizations[0].id as string;
    const auth = { authorization: `Bearer ${registered.token}`, 'x-organization-id': organizationId };
    const key = (await call('POST', '/api-keys', { name: 'Live', isSandbox: false }, auth)).data.key as string;
    const db_ = db = await openDatabase({ databaseUrl: database!.url, poolSize: 1 });
    // Enough credit for the recovery rounds (the trial credit is capped at GHS 100).
    await db_.em().execute('update wallets set balance = balance + 100000000 where organization_id = ?', [organizationId]);
    let next = 0;
    const sendBatch = async (n: number): Promise<string[]> => {
      const to = Array.from({ length: n }, () => `+23324${String(6_000_000 + next++).padStart(7, '0')}`);
      const sent = await call('POST', '/messages/bulk', { async: true, messages: to.map((t) => ({ channel: 'SMS', to: t, body: 'Circuit test' })) }, { 'x-api-key': key, 'idempotency-key': `cb-${next}` });
      expect(sent.status).to.equal(202);
      return to;
    };
    const outage = [...await sendBatch(100), ...await sendBatch(100)];

    const metricsPorts = [await freePort(), await freePort()];
    const workers = metricsPorts.map((port) => startProcess('hosts/worker/main.ts', { ...base, PORT: '0', WORKER_METRICS_PORT: String(port) }));
    started.push(...workers);
    const circuitOf = async (port: number): Promise<number | null> => {
      const text = await fetch(`http://127.0.0.1:${port}/metrics`, { signal: AbortSignal.timeout(2_000) }).then((r) => r.text(), () => '');
      const match = /nkra_provider_circuit_state\{provider="cb-primary"\} (\d)/.exec(text);
      return match ? Number(match[1]) : null;
    };
    const byStatus = async (recipients: readonly string[]) => Object.fromEntries((await db_.em().execute<{ status: string; provider: string; n: string }[]>(
      `select status, coalesce(provider, '') as provider, count(*) as n from messages where organization_id = ? and recipient in (?) group by 1, 2`,
      [organizationId, recipients])).map((r) => [`${r.status} ${r.provider}`, Number(r.n)]));

    // The outage: every message SENT through the secondary, each accepted once; the primary saw a bounded number of sends.
    const drainStarted = Date.now();
    await until(async () => (await byStatus(outage))['SENT cb-secondary'] === MESSAGES, 90_000, 'every message failed over to the secondary');
    const drainMs = Date.now() - drainStarted;
    expect(await byStatus(outage)).to.deep.equal({ 'SENT cb-secondary': MESSAGES });
    expect(outage.map((r) => secondary.state.accepted.get(r.replace(/\D/g, '')) ?? 0)).to.deep.equal(Array(MESSAGES).fill(1));
    expect(primary.state.accepted.size).to.equal(0);
    // Each process: the threshold, plus what was in flight when the circuit opened, plus one half-open trial per cooldown.
    const bound = 2 * (THRESHOLD + VENDOR_CONCURRENCY) + 2 * Math.ceil(drainMs / COOLDOWN_MS);
    expect(primary.state.received, `vendor calls during the outage (drain ${drainMs} ms)`).to.be.at.most(bound).and.at.least(THRESHOLD);
    // Both workers took part and each has its own circuit open (2 = open; a half-open trial against the dead vendor re-opens it).
    await until(async () => (await Promise.all(metricsPorts.map(circuitOf))).every((s) => s === 2), 10_000, 'both workers\' circuits to be open');

    // Recovery: sends keep coming, in rounds larger than one worker fetches at once (so both get work);
    // after the cooldown each worker's trial succeeds and closes its own circuit.
    primary.recover();
    const recovery: string[] = [];
    await until(async () => {
      recovery.push(...await sendBatch(50));
      await new Promise((r) => setTimeout(r, 400));
      const states = await Promise.all(metricsPorts.map(circuitOf));
      return states.every((s) => s === 0);
    }, COOLDOWN_MS + 30_000, 'both workers\' circuits to close after the vendor recovered').catch((error: unknown) => {
      for (const w of workers) console.log('worker log (circuits):\n', w.output().split('\n').filter((l) => /circuit/i.test(l)).slice(-20).join('\n'));
      throw error;
    });
    // Closed everywhere: the primary (priority 1) takes the traffic back, and nothing is lost or sent twice on the way.
    const after = await sendBatch(20);
    await until(async () => (await byStatus(after))['SENT cb-primary'] === 20, 30_000, 'the primary to take the traffic back');
    await until(async () => Object.entries(await byStatus(recovery)).every(([k]) => k.startsWith('SENT ')), 30_000, 'the recovery sends to go out');
    for (const r of [...recovery, ...after]) {
      const digits = r.replace(/\D/g, '');
      expect((primary.state.accepted.get(digits) ?? 0) + (secondary.state.accepted.get(digits) ?? 0), r).to.equal(1);
    }
    expect(workers.every((w) => w.child.exitCode === null)).to.equal(true);
  });
});
