import { fork, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import { acceptMessages } from '../../core/use-cases/messaging/accept-messages.ts';
import { prepareMessage } from '../../core/use-cases/messaging/message-preparation.ts';
import { INFRA } from '../../hosts/tokens.ts';
import { MESSAGING } from '../../hosts/messaging-bindings.ts';
import { BENCH_ENV, ensureBenchDatabase, machineBusy, startSendServer } from './send-server.ts';

/**
 * `npm run bench:schedule`: N live SMS (default 100,000) all scheduled for one instant, T, released by a
 * worker process started as `npm run worker` starts it (node hosts/worker/main.ts) and delivered through
 * the Arkesel v2 adapter to a local fake Arkesel (slow-vendor-process.ts, --latency ms per send). The
 * worker is started first and is idle (its one-second scheduler tick finds nothing due) until T.
 * Target (issue 19): every message has left SCHEDULED within 60 s of T.
 *
 * The messages are accepted through the send path itself (acceptMessages: screening, pricing, one
 * wallet debit and one multi-row insert per 1,000), in-process, with sendAt = T, one instant; T is
 * --lead seconds after the start (default 120: accepting 100,000 takes 35-55 s on the shared 2-core
 * machine; the run stops if accepting outlasts the lead). Reported: the acceptance
 * rate (the reference measured in the same run), the time from T until the last message left SCHEDULED,
 * the release rate, and the time until all were SENT at the fake vendor (capped by --deliver-timeout).
 * Settings: --messages=100000 --lead=120 --latency=20 --deliver-timeout=600. Own database `nkra_bench_schedule`.
 */
function flag(name: string, fallback: number): number {
  const raw = process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
  const value = Number(raw ?? fallback);
  if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} must be a non-negative number`);
  return value;
}
const settings = { messages: flag('messages', 100_000), leadSeconds: flag('lead', 120), latencyMs: flag('latency', 20), deliverTimeoutS: flag('deliver-timeout', 600) };
const TARGET_MS = 60_000;
const ACCEPT_BATCH = 1_000;

async function startFakeArkesel(latencyMs: number) {
  const child = fork(fileURLToPath(new URL('./slow-vendor-process.ts', import.meta.url)), [String(latencyMs)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await new Promise<number>((resolve) => child.once('message', (m: { port: number }) => resolve(m.port)));
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => { child.once('exit', () => resolve()); child.send({ type: 'stop' }); }) };
}

async function main(): Promise<void> {
  const vendor = await startFakeArkesel(settings.latencyMs);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'nkra-schedule-bench-'));
  const providersFile = path.join(dir, 'providers.json');
  await writeFile(providersFile, JSON.stringify({ providers: [{
    name: 'bench-arkesel', vendor: 'arkesel-sms', channel: 'SMS', priority: 1, countries: ['*'],
    settings: { senderId: 'NKRA', baseUrl: vendor.url, maxConcurrency: '200' }, credentials: { apiKey: 'bench-arkesel-key' },
  }] }));
  process.env['PROVIDERS_FILE'] = providersFile;
  const databaseUrl = await ensureBenchDatabase(process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test', 'nkra_bench_schedule');
  const server = await startSendServer(databaseUrl);
  let worker: ReturnType<typeof spawn> | null = null;
  let ok = false;
  try {
    const db = server.infra.database.em();
    const storage = server.container.get(INFRA.storage);
    const { organizationId } = await server.newSandboxKey('schedule');
    await storage.wallets.update(organizationId, () => ({ amount: 100_000_000, kind: 'TOP_UP', reference: `bench-${randomUUID()}`, description: 'bench top-up' }), new Date());
    const rules = await server.container.get(MESSAGING.pricing).listActive();
    const deps = { storage, clock: server.container.get(INFRA.clock), ids: server.container.get(INFRA.ids), fraud: server.container.get(MESSAGING.fraudLimits) };
    const ctx = { organizationId, userId: null, apiKeyId: null, isSandbox: false };

    // The worker runs from the start, as a deployed one does: its start-up (seconds under load) is not part of the measure.
    console.log('starting the worker (node hosts/worker/main.ts) ...');
    worker = spawn(process.execPath, ['hosts/worker/main.ts'], {
      cwd: fileURLToPath(new URL('../..', import.meta.url)), stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, ...BENCH_ENV, LOG_LEVEL: 'warn', PORT: '0', DATABASE_URL: databaseUrl, DATA_DIR: dir, PROVIDERS_FILE: providersFile },
    });
    const started = Date.now();
    const due = new Date(started + settings.leadSeconds * 1000);
    console.log(`accepting ${settings.messages.toLocaleString('en')} live SMS scheduled for ${due.toISOString()} (acceptMessages, ${ACCEPT_BATCH} per transaction) ...`);
    for (let from = 0; from < settings.messages; from += ACCEPT_BATCH) {
      const n = Math.min(ACCEPT_BATCH, settings.messages - from);
      const prepared = Array.from({ length: n }, (_, i) => prepareMessage({
        channel: 'SMS', to: `+23324${String(1_000_000 + from + i).padStart(7, '0')}`, body: 'Your appointment is tomorrow at 9:00', countryCode: 'GH', sendAt: due,
      }, null, rules));
      await acceptMessages(deps, ctx, prepared, { async: true, idempotency: null, batchId: randomUUID() });
    }
    const acceptSeconds = (Date.now() - started) / 1000;
    if (Date.now() > due.getTime() - 2_000) throw new Error(`accepting took ${acceptSeconds.toFixed(0)} s, past T - 2 s: run again with a longer --lead`);
    await server.vacuum();
    const count = async (sql: string) => Number((await db.execute<{ n: string }[]>(`select count(*)::text as n from messages where organization_id = ? and ${sql}`, [organizationId]))[0]?.n ?? 0);
    const scheduled = await count(`status = 'SCHEDULED'`);
    if (scheduled !== settings.messages) throw new Error(`${scheduled} SCHEDULED, expected ${settings.messages}`);

    await new Promise((r) => setTimeout(r, Math.max(0, due.getTime() - Date.now())));
    const machine0 = os.cpus();
    let firstReleaseMs: number | null = null;
    let releasedMs: number | null = null;
    let deliveredMs: number | null = null;
    let early = 0;
    const deadline = due.getTime() + settings.deliverTimeoutS * 1000;
    while (Date.now() < deadline) {
      const left = await count(`status = 'SCHEDULED'`);
      const at = Date.now() - due.getTime();
      if (firstReleaseMs === null && left < settings.messages) firstReleaseMs = at;
      if (releasedMs === null && left === 0) { releasedMs = at; console.log(`all released ${(at / 1000).toFixed(1)} s after T`); }
      if (releasedMs !== null && await count(`status in ('QUEUED', 'PENDING')`) === 0) { deliveredMs = at; break; }
      await new Promise((r) => setTimeout(r, 250));
    }
    const machineCpu = machineBusy(machine0, os.cpus());
    const counts = await server.statusCounts(organizationId);
    early = await count(`sent_at < scheduled_at`);
    const releaseRate = releasedMs !== null ? Math.round(settings.messages / Math.max(0.001, (releasedMs - (firstReleaseMs ?? 0)) / 1000)) : 0;
    ok = releasedMs !== null && releasedMs <= TARGET_MS && early === 0;
    console.log('');
    console.log(`Node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model.trim() ?? 'unknown'}), load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}, ${new Date().toISOString()}`);
    console.log(`command: npm run bench:schedule -- --messages=${settings.messages} --lead=${settings.leadSeconds} --latency=${settings.latencyMs} --deliver-timeout=${settings.deliverTimeoutS}`);
    console.log('');
    console.log('| measure | value |');
    console.log('|---|---|');
    console.log(`| accepted (reference: send path, in-process) | ${settings.messages.toLocaleString('en')} in ${acceptSeconds.toFixed(1)} s = ${Math.round(settings.messages / acceptSeconds).toLocaleString('en')}/s |`);
    console.log(`| first release after T | ${firstReleaseMs === null ? 'never' : `${(firstReleaseMs / 1000).toFixed(2)} s`} |`);
    console.log(`| all released (none SCHEDULED) after T | ${releasedMs === null ? 'not within the timeout' : `${(releasedMs / 1000).toFixed(1)} s`} (target <= 60 s) |`);
    console.log(`| release rate | ${releaseRate.toLocaleString('en')} messages/s (${(releaseRate / Math.max(1, settings.messages / acceptSeconds)).toFixed(1)}x the acceptance rate) |`);
    console.log(`| all delivered (SENT at the fake vendor) after T | ${deliveredMs === null ? `not within ${settings.deliverTimeoutS} s` : `${(deliveredMs / 1000).toFixed(1)} s`} |`);
    console.log(`| statuses at the end | ${JSON.stringify(counts)} |`);
    console.log(`| sent before their time | ${early} |`);
    console.log(`| machine CPU busy from T to the end | ${Math.round(machineCpu * 100)}% |`);
    console.log('');
    console.log(ok ? 'PASS' : 'FAIL');
  } finally {
    if (worker) { worker.kill('SIGTERM'); await new Promise((r) => worker!.once('exit', r)); }
    await server.close();
    await vendor.close();
    await rm(dir, { recursive: true, force: true });
  }
  process.exitCode = ok ? 0 : 1;
}

await main();
