import { fork } from 'node:child_process';
import http from 'node:http';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import Koa from 'koa';
import { SystemClock } from '../../adapters/memory/system-clock.ts';
import { openDatabase } from '../../adapters/postgres/database.ts';
import { MikroOrmStorage } from '../../adapters/postgres/mikro-orm-storage.ts';
import { sqlRows } from '../../adapters/postgres/sql-rows.ts';
import { RandomLinkCodes } from '../../adapters/security/random-link-codes.ts';
import { UuidV7IdGenerator } from '../../adapters/security/uuid-v7-id-generator.ts';
import { loadConfig } from '../../hosts/config.ts';
import { openInfrastructure } from '../../hosts/infrastructure.ts';
import { createLinksApp, linkRedirects } from '../../hosts/links/link-redirects.ts';
import { createLogger } from '../../hosts/logger.ts';
import { seedOrganization } from '../contract/contract-fixtures.ts';

/**
 * `npm run bench:links` (docs/links.md, "Speed"; figures in docs/benchmarks/2026-11-28-links.md): redirects
 * per second and latency of the link service (`npm run links`' app: createLinksApp with the real storage
 * and click buffer) against a bare Koa 3 static 302, one after the other in one run, load from a forked
 * process spreading requests over --codes random links with a browser User-Agent (every request counts a
 * click). Runs: bare 302; links with the in-process cache; links with no cache (one indexed lookup per
 * request). Afterwards the clicks in the database must equal the redirects answered (nothing lost on stop).
 * Settings: --connections=16 --duration=5 --warmup=1 --codes=20000 --hot=1000 --min-rps=5000 --max-p99=20.
 * DATABASE_URL selects PostgreSQL (else PGlite in memory); the bench works in its own database there,
 * `nkra_bench_links` (BENCH_DATABASE), created when missing, so test runs beside it cannot drop its tables.
 * Exits 1 below the bar or on a lost click.
 */
interface Settings { connections: number; duration: number; warmup: number; codes: number; minRps: number; maxP99: number }
interface LoadResult { requests: number; redirects: number; other: number; errors: number; rps: number; p50: number; p90: number; p99: number; max: number; clientCpu: number }

const flag = (name: string, fallback: number): number => {
  const value = Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
  if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} must be a non-negative number`);
  return value;
};
const round = (n: number) => Math.round(n * 100) / 100;
const UA = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36';

/** The load generator (child process): closed loop over keep-alive connections, 302 is success. */
async function load(options: { port: number; paths: string[]; connections: number; duration: number; warmup: number }): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const once = (path: string) => new Promise<number>((resolve, reject) => {
    const req = http.request({ agent, host: '127.0.0.1', port: options.port, path, method: 'GET', headers: { 'user-agent': UA } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
  const latencies: number[] = [];
  let other = 0; let errors = 0; let redirects = 0;
  const from = performance.now() + options.warmup * 1000;
  const until = from + options.duration * 1000;
  let cpu = process.cpuUsage();
  let measuring = false;
  let i = 0;
  const worker = async () => {
    while (performance.now() < until) {
      const started = performance.now();
      if (!measuring && started >= from) { measuring = true; cpu = process.cpuUsage(); }
      const counted = measuring;
      try {
        const status = await once(options.paths[(i++) % options.paths.length]!);
        if (status === 302) redirects += 1; // warm-up redirects count as clicks too: checked against the database
        if (!counted) continue;
        latencies.push(performance.now() - started);
        if (status !== 302) other += 1;
      } catch { if (counted) errors += 1; }
    }
  };
  await Promise.all(Array.from({ length: options.connections }, worker));
  const used = process.cpuUsage(cpu);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN);
  return { requests: latencies.length, redirects, other, errors, rps: Math.round(latencies.length / options.duration), p50: at(0.5), p90: at(0.9), p99: at(0.99),
    max: round(latencies.at(-1) ?? NaN), clientCpu: round((used.user + used.system) / 1e6 / options.duration) };
}

function measure(port: number, paths: string[], s: Settings): Promise<LoadResult & { serverCpu: number }> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), ['--load'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const cpu = process.cpuUsage();
    child.on('message', (result: LoadResult) => {
      const used = process.cpuUsage(cpu);
      resolve({ ...result, serverCpu: round((used.user + used.system) / 1e6 / (s.duration + s.warmup)) });
    });
    child.on('error', reject);
    child.on('exit', (code) => { if (code !== 0) reject(new Error(`load generator exited with ${code}`)); });
    child.send({ port, paths, connections: s.connections, duration: s.duration, warmup: s.warmup });
  });
}

async function serve(app: Koa): Promise<{ port: number; close(): Promise<void> }> {
  const server = http.createServer(app.callback());
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as { port: number }).port, close: () => new Promise<void>((resolve) => { server.close(() => resolve()); server.closeAllConnections(); }) };
}

/** DATABASE_URL pointed at the bench's own database (created when missing); unset stays unset (PGlite). */
async function benchDatabaseUrl(): Promise<string | undefined> {
  const base = process.env['DATABASE_URL'];
  if (!base) return undefined;
  const name = process.env['BENCH_DATABASE'] ?? 'nkra_bench_links';
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error('BENCH_DATABASE must be a plain lowercase name');
  const at = (db: string) => { const u = new URL(base); u.pathname = `/${db}`; return u.toString(); };
  const admin = await openDatabase({ databaseUrl: at('postgres'), poolSize: 1 });
  try {
    const found = await admin.em().execute<Array<{ n: number }>>('select 1 as n from pg_database where datname = ?', [name]);
    if (found.length === 0) await admin.em().execute(`create database ${name}`);
  } finally { await admin.close(); }
  return at(name);
}

async function main(): Promise<void> {
  const s: Settings = { connections: flag('connections', 16), duration: flag('duration', 5), warmup: flag('warmup', 1), codes: flag('codes', 20_000), minRps: flag('min-rps', 5_000), maxP99: flag('max-p99', 20) };
  const databaseUrl = await benchDatabaseUrl();
  const config = await loadConfig({ ...process.env, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}), NODE_ENV: 'development', DATA_DIR: os.tmpdir(), HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'warn' });
  const logger = createLogger('warn');
  const infra = await openInfrastructure(config, logger, { superviseQueue: false, pgliteDir: null });
  const ids = new UuidV7IdGenerator();
  const storage = new MikroOrmStorage(infra.database, ids, infra.boss);
  const org = await seedOrganization(storage);
  const codes = new RandomLinkCodes();
  const links = Array.from({ length: s.codes }, (_, i) => ({ code: codes.next(), organizationId: org.id, messageId: ids.next(), templateId: null,
    url: `https://shop.example.com.gh/offer/${i}?utm_source=sms`, createdAt: new Date(), expiresAt: null }));
  for (let i = 0; i < links.length; i += 5_000) await storage.trackedLinks.insertMany(links.slice(i, i + 5_000));
  const paths = links.map((l) => `/l/${l.code}`).sort(() => Math.random() - 0.5);

  const rows: Array<{ label: string; r: LoadResult & { serverCpu: number } }> = [];
  const bare = new Koa();
  bare.use((ctx) => { ctx.status = 302; ctx.set('Location', 'https://shop.example.com.gh/offer'); ctx.body = ''; });
  let server = await serve(bare);
  console.log(`measuring bare Koa 302 (${s.connections} connections, ${s.warmup} s warm-up, ${s.duration} s) ...`);
  rows.push({ label: 'bare Koa 3 static 302', r: await measure(server.port, paths, s) });
  await server.close();

  let lost = 0;
  // Cached: requests spread over --hot codes (a link clicked again and again: shared in a group, previewers then the person),
  // all in the cache after the warm-up. Uncached: every request one indexed lookup (most links are clicked once).
  const hot = paths.slice(0, flag('hot', 1_000));
  for (const cacheSize of [50_000, 0]) {
    const redirects = linkRedirects({ storage, clock: new SystemClock(), ids, logger, linkBaseUrl: 'http://127.0.0.1/l', cacheSize });
    redirects.start();
    const linksApp = createLinksApp(redirects.follow);
    let failures = 0;
    linksApp.on('error', (error: unknown) => { if (failures++ === 0) console.error('first redirect failure:', error); });
    server = await serve(linksApp);
    const label = cacheSize > 0 ? `links app, cache hits (${hot.length} hot codes)` : `links app, no cache (one indexed lookup each, ${paths.length} codes)`;
    console.log(`measuring ${label} ...`);
    const [before] = await sqlRows<{ n: string }>(infra.database.em(), 'select coalesce(sum(clicks), 0) as n from tracked_links where organization_id = $1', [org.id]);
    const r = await measure(server.port, cacheSize > 0 ? hot : paths, s);
    await server.close();
    await redirects.stop(); // graceful shutdown: every buffered click written
    const [after] = await sqlRows<{ n: string }>(infra.database.em(), 'select coalesce(sum(clicks), 0) as n from tracked_links where organization_id = $1', [org.id]);
    const written = Number(after!.n) - Number(before!.n);
    lost += r.redirects - written;
    console.log(`  redirects answered ${r.redirects}, clicks written ${written}`);
    rows.push({ label, r });
  }
  await infra.close();

  console.log('');
  console.log(`Node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model.trim() ?? 'unknown'}), load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}, ${infra.database.kind}, ${new Date().toISOString()}`);
  console.log('| target | redirects/s | p50 ms | p90 ms | p99 ms | max ms | not 302 | errors | server CPU | server CPU µs/redirect | load-generator CPU |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const { label, r } of rows) console.log(`| ${label} | ${r.rps} | ${r.p50} | ${r.p90} | ${r.p99} | ${r.max} | ${r.other} | ${r.errors} | ${Math.round(r.serverCpu * 100)}% | ${((r.serverCpu * (s.duration + s.warmup) * 1e6) / Math.max(1, r.redirects)).toFixed(0)} | ${Math.round(r.clientCpu * 100)}% |`);
  const [base, cached] = [rows[0]!.r, rows[1]!.r];
  console.log('');
  console.log(`ratio of redirects/s (links app with cache / bare Koa 302): ${Math.round((cached.rps / base.rps) * 100)}%`);
  console.log(`clicks lost: ${lost}`);
  const met = cached.rps >= s.minRps && cached.p99 < s.maxP99 && cached.other === 0 && cached.errors === 0 && lost === 0;
  console.log(met ? `bar met (>= ${s.minRps}/s, p99 < ${s.maxP99} ms, no click lost)` : 'BELOW THE BAR');
  process.exitCode = met ? 0 : 1;
}

if (process.argv.includes('--load')) {
  process.once('message', (options: Parameters<typeof load>[0]) => {
    load(options).then((r) => { process.send!(r); process.disconnect(); }).catch((error: unknown) => { console.error(error); process.exit(1); });
  });
} else {
  await main();
}
