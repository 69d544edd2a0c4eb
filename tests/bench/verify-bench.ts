import os from 'node:os';
import { generate } from './send-load-runner.ts';
import { ensureBenchDatabase } from './send-server.ts';
import { startBenchService } from './send-service.ts';

/**
 * `npm run bench:verify`: Verify on PostgreSQL against the service as `npm start` runs it (API and
 * worker in one child process), load from a forked process (keep-alive connections, closed loop), one
 * tenant with a live API key (charged from a wallet topped up through the sandbox checkout), an
 * idempotency key on every start, as the client libraries send it:
 *
 * - the reference: async single sends with a sandbox key, no idempotency key (bench:send's reference);
 * - verification starts: a new recipient each (the per-recipient limit is per recipient), the passcode
 *   SMS queued and charged;
 * - checks: a wrong 10-digit code against the started verifications round-robin (each check counted in
 *   one conditional update and compared in constant time; up to 5 per verification).
 * Targets (issue 18): >= 500 starts/s and >= 2,000 checks/s, printed as ratios against the reference.
 * Prefix blocking is off for the bench tenant: its starts are never checked right, so every prefix's
 * conversion is 0% and the rule would (rightly) stop it after 20.
 * Settings: --duration=8 --warmup=2 --connections=50. Database `nkra_bench_verify` on DATABASE_URL's server.
 */
function flag(name: string, fallback: number): number {
  const raw = process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
  const value = Number(raw ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
  return value;
}

const s = { connections: flag('connections', 50), durationSeconds: flag('duration', 8), warmupSeconds: flag('warmup', 2) };
const TARGETS = { start: 500, check: 2_000 };

async function main(): Promise<void> {
  const serverUrl = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
  const service = await startBenchService(await ensureBenchDatabase(serverUrl, 'nkra_bench_verify'));
  let ok = false;
  try {
    const tenant = await service.newTenant('verify', 5_000);
    const settings = await fetch(`${service.base}/verify/settings`, { method: 'PUT', headers: { ...tenant.jwt, 'content-type': 'application/json' },
      body: JSON.stringify({ prefixBlocking: false, maxStartsPerRecipientPerHour: 100 }) });
    if (settings.status !== 200) throw new Error(`PUT /verify/settings answered ${settings.status}`);
    const base = Math.floor(Math.random() * 5_000_000);
    console.log(`measuring the reference: async single sends, sandbox key (${s.connections} connections, ${s.warmupSeconds} s warm-up, ${s.durationSeconds} s) ...`);
    const reference = await generate({ url: `${service.base}/messages/send`, headers: tenant.sandbox, kind: 'single', async: true, bulkSize: 0, recipientBase: base,
      expectStatus: 202, expectBodyIncludes: null }, s, service);
    console.log('measuring verification starts, live key + idempotency key ...');
    const starts = await generate({ url: `${service.base}/verify/start`, headers: tenant.live, kind: 'verify-start', async: true, bulkSize: 0, recipientBase: base + 2_000_000,
      idempotency: true, collectIds: true, expectStatus: 201, expectBodyIncludes: '"PENDING"' }, s, service);
    console.log(`measuring checks over ${starts.load.ids.length} verifications, live key ...`);
    const checks = await generate({ url: `${service.base}/verify/check`, headers: tenant.live, kind: 'verify-check', async: true, bulkSize: 0, recipientBase: 0,
      checkIds: starts.load.ids, expectStatus: 200, expectBodyIncludes: '"valid":false' }, s, service);
    const [counted] = await service.db.em().execute<{ starts: string; checks: string }[]>(
      'select count(*)::text as starts, coalesce(sum(check_attempts), 0)::text as checks from verifications where organization_id = ?', [tenant.organizationId]);
    const money = await service.money(tenant.organizationId);
    const moneyOk = money.balance === money.ledger && money.debits === money.charged;
    const startRate = starts.load.requestsPerSecond;
    const checkRate = checks.load.requestsPerSecond;
    const clean = starts.load.non2xx + starts.load.errors + checks.load.non2xx + checks.load.errors === 0 && Number(counted?.starts) === starts.load.acceptedTotal;
    ok = startRate >= TARGETS.start && checkRate >= TARGETS.check && clean && moneyOk;
    const ratio = (n: number) => `${Math.round((n / Math.max(1, reference.load.requestsPerSecond)) * 100)}%`;
    const row = (label: string, r: typeof reference, target: string) => `| ${label} | ${r.load.requestsPerSecond.toLocaleString('en')} | ${target} | ${label.startsWith('reference') ? '' : ratio(r.load.requestsPerSecond)} | ${r.load.latencyMs.p50} | ${r.load.latencyMs.p99} | ${r.load.non2xx + r.load.errors} | ${Math.round(r.serverCpu * 100)}% | ${Math.round(r.machineCpu * 100)}% |`;
    console.log('');
    console.log(`Node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model.trim() ?? 'unknown'}), ${new Date().toISOString()}`);
    console.log(`command: npm run bench:verify -- --connections=${s.connections} --duration=${s.durationSeconds} --warmup=${s.warmupSeconds}`);
    console.log('');
    console.log('| phase | per second | target | ratio to reference | p50 ms | p99 ms | unexpected | server CPU | machine CPU |');
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
    console.log(row('reference: async single send, sandbox key', reference, ''));
    console.log(row('verification starts, live key + idempotency key', starts, `>= ${TARGETS.start}${startRate >= TARGETS.start ? '' : ' MISSED'}`));
    console.log(row('checks (wrong code, counted and compared)', checks, `>= ${TARGETS.check.toLocaleString('en')}${checkRate >= TARGETS.check ? '' : ' MISSED'}`));
    console.log('');
    console.log(`database: ${counted?.starts} verifications (${starts.load.acceptedTotal} answered 201), ${counted?.checks} checks counted; `
      + `money: balance ${money.balance} = ledger ${money.ledger}: ${money.balance === money.ledger}, debits ${money.debits} = costs ${money.charged}: ${money.debits === money.charged}`);
    if (!clean) console.log(`first unexpected answer: ${starts.load.firstUnexpected ?? checks.load.firstUnexpected ?? '(none)'}`);
    console.log(ok ? 'all targets met' : 'BELOW TARGET or FAILED');
  } finally {
    await service.close();
  }
  process.exitCode = ok ? 0 : 1;
}

await main();
