import { openDatabase } from '../../adapters/postgres/database.ts';
import { migrate } from '../../adapters/postgres/migrate.ts';
import { seedPricingRules } from '../../adapters/postgres/seed-pricing.ts';
import { startBoss } from '../../adapters/queue/pg-boss-factory.ts';
import { UuidV7IdGenerator } from '../../adapters/security/uuid-v7-id-generator.ts';
import { buildApiContainer, buildApp } from '../../hosts/api/container.ts';
import { listen } from '../../hosts/api/server.ts';
import { createLogger } from '../../hosts/logger.ts';
import { loadProviders } from '../../hosts/messaging-bindings.ts';
import { INFRA } from '../../hosts/tokens.ts';
import { testConfig } from '../support/test-config.ts';
import { arg, BENCH_URL } from './workflow-bench-setup.ts';

/**
 * `npm run bench:workflow-trigger -- --requests=2000 --concurrency=16` (issue 31): POST /events/trigger on the
 * real API (in process, PostgreSQL) for an event without workflow (today's one-step trigger: accepted and
 * delivered in the request) and for an event with a 3-step workflow [throttle, delay, send] (the run recorded
 * and its job queued), alternating rounds in the same run. Bar: the 3-step rate >= 80% of the one-step rate.
 */
const REQUESTS = arg('requests', 2_000);
const CONCURRENCY = arg('concurrency', 16);
const database = await openDatabase({ databaseUrl: BENCH_URL, poolSize: 10 });
await migrate(database);
await seedPricingRules(database, new UuidV7IdGenerator());
const boss = await startBoss(database, { supervise: false, schedule: false });
const config = testConfig({ databaseUrl: BENCH_URL, fraudNewTenantDays: 0, fraudRecipientPerHour: 1_000_000, fraudNewTenantPerHour: 100_000_000, logLevel: 'silent' });
const logger = createLogger('silent');
const infra = { database, boss, async close() { await boss.stop({ graceful: false, close: true } as never).catch(() => undefined); await database.close(); } };
const container = buildApiContainer(config, logger, infra);
await loadProviders(container);
const server = await listen(buildApp(container), 0, '127.0.0.1', logger);
const base = `http://127.0.0.1:${server.port}`;
const reg = await (await fetch(`${base}/auth/register`, { method: 'POST', headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ email: `wf-trigger-${Date.now()}@bench.test`, password: 'correct-horse-battery', firstName: 'B', lastName: 'B', organizationName: 'Triggers' }) })).json() as
  { data: { token: string; organizations: Array<{ id: string }> } };
const organizationId = reg.data.organizations[0]!.id;
const headers = { authorization: `Bearer ${reg.data.token}`, 'x-organization-id': organizationId, 'content-type': 'application/json' };
const call = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${base}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const json = await res.json() as { data: Record<string, any>; error?: unknown };
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json.error)}`);
  return json.data;
};
await container.get(INFRA.storage).wallets.update(organizationId, () => ({ amount: 100_000_000, kind: 'TOP_UP', reference: 'bench', description: 'bench' }), new Date());
const template = await call('POST', '/templates', { name: 'T', channel: 'SMS', body: 'Order {{order}} shipped', category: 'TRANSACTIONAL' });
await call('POST', '/events', { name: 'One step', slug: 'bench.one', templateId: template['id'] });
const three = await call('POST', '/events', { name: 'Three steps', slug: 'bench.three', templateId: template['id'] });
await call('PUT', `/events/${three['id']}/workflow`, { steps: [{ type: 'throttle', limit: 100, windowSeconds: 60 }, { type: 'delay', seconds: 3600 }, { type: 'send' }] });

let n = 0;
async function round(event: string): Promise<number> {
  let next = 0;
  const t = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < REQUESTS) {
      next += 1;
      n += 1;
      const res = await fetch(`${base}/events/trigger`, { method: 'POST', headers, body: JSON.stringify({ event, to: `+23324${String(2_000_000 + n).padStart(7, '0')}`, variables: { order: String(n) } }) });
      if (res.status !== 201) throw new Error(`${event}: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
    }
  }));
  return REQUESTS / ((performance.now() - t) / 1000);
}
await round('bench.one'); // warm-up
const rates = { one: [] as number[], three: [] as number[] };
for (let i = 0; i < 2; i++) {
  rates.one.push(await round('bench.one'));
  rates.three.push(await round('bench.three'));
}
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const ratio = mean(rates.three) / mean(rates.one);
console.log(`one-step trigger: ${rates.one.map((r) => r.toFixed(0)).join(', ')} req/s; 3-step workflow trigger: ${rates.three.map((r) => r.toFixed(0)).join(', ')} req/s; `
  + `ratio ${(ratio * 100).toFixed(0)}% (bar: >= 80%), ${REQUESTS} requests per round, concurrency ${CONCURRENCY}`);
await server.close(2_000);
await infra.close();
process.exit(ratio >= 0.8 ? 0 : 2);
