import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { openDatabase, type Database } from '../../adapters/postgres/database.ts';
import { migrate } from '../../adapters/postgres/migrate.ts';
import { MikroOrmStorage } from '../../adapters/postgres/mikro-orm-storage.ts';
import { seedPricingRules } from '../../adapters/postgres/seed-pricing.ts';
import { startBoss } from '../../adapters/queue/pg-boss-factory.ts';
import { UuidV7IdGenerator } from '../../adapters/security/uuid-v7-id-generator.ts';
import { SystemClock } from '../../adapters/memory/system-clock.ts';
import { newOrganization } from '../../core/domain/organization.ts';
import { QUEUES } from '../../core/ports/job-queue.ts';
import { CreateEvent } from '../../core/use-cases/events/create-event.ts';
import { PutWorkflow } from '../../core/use-cases/workflows/put-workflow.ts';
import { aTemplateRecord } from '../support/template-record.ts';
import { ensureBenchDatabase } from './send-server.ts';

/**
 * The database of the workflow benches: DATABASE_URL (a database of its own: the benches add organizations and
 * runs and never clean them up), by default nkra_bench_workflows on the local server, created when missing.
 */
export const BENCH_URL = process.env['DATABASE_URL'] ?? await ensureBenchDatabase('postgres://postgres@127.0.0.1:5432/postgres', 'nkra_bench_workflows');
export const arg = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A fresh organization (wallet topped up), an SMS template, an event and its workflow of `steps`. */
export async function setUpWorkflowBench(steps: unknown[], templateBody: string, variables: string[]) {
  const database = await openDatabase({ databaseUrl: BENCH_URL, poolSize: 8 });
  await migrate(database);
  const ids = new UuidV7IdGenerator();
  await seedPricingRules(database, ids);
  const boss = await startBoss(database, { supervise: true, schedule: false });
  const storage = new MikroOrmStorage(database, ids, boss);
  const clock = new SystemClock();
  const now = clock.now();
  const organizationId = ids.next();
  await storage.organizations.insert({ ...newOrganization(organizationId, `Workflow bench ${now.toISOString()}`, new Date(now.getTime() - 30 * 86_400_000)) });
  await storage.wallets.create(organizationId, now);
  await storage.wallets.update(organizationId, () => ({ amount: 1_000_000_000, kind: 'TOP_UP', reference: `bench-${organizationId}`, description: 'bench' }), now);
  const template = aTemplateRecord(ids.next(), organizationId, now, { body: templateBody, variables, category: 'TRANSACTIONAL' });
  await storage.templates.insert(template);
  const slug = `bench.${organizationId.slice(-12)}`;
  const event = await new CreateEvent({ storage, ids, clock }).execute({ organizationId }, { name: 'Bench', slug, templateId: template.id });
  await new PutWorkflow({ storage, ids, clock }).execute({ organizationId }, event.id, { steps });
  const version = (await storage.workflows.latestVersion(organizationId, event.id))!;
  const workers: ChildProcess[] = [];
  return {
    database, boss, storage, organizationId, ids, clock, eventId: event.id, slug, version, workers,
    /**
     * `count` runs (RUNNING, cursor 0) for `recipients` recipients (run g goes to recipient g mod recipients,
     * interleaved), inserted by SQL, with their first jobs (pg-boss insert, chunks of 5000; `jobs: 'none'`: without). `variablesSql` is the
     * jsonb expression of a run's variables (g is its number).
     */
    async insertRuns(count: number, recipients: number, variablesSql: string, jobs: { startAfter: Date } | 'none' | null = null): Promise<void> {
      for (let from = 0; from < count; from += 50_000) {
        const to = Math.min(count, from + 50_000) - 1;
        await database.em().execute(`insert into workflow_runs (id, organization_id, event_id, event_slug, version, steps, cancel_on, retry, request, correlation_key,
          status, cursor, attempts, is_sandbox, created_at, updated_at)
          select gen_random_uuid()::text, ?, ?, ?, ?, ?::jsonb, '[]'::jsonb, '{"attempts":3,"backoffSeconds":5}'::jsonb,
            jsonb_build_object('to', '+23324' || lpad((1000000 + g % ?)::text, 7, '0'), 'contactId', null, 'subscriberId', null, 'countryCode', 'GH', 'variables', ${variablesSql}),
            null, 'RUNNING', 0, 0, false, now() + g * interval '1 microsecond', now()
          from generate_series(?::int, ?::int) g`, [organizationId, event.id, slug, version.version, JSON.stringify(version.steps), recipients, from, to]);
      }
      if (jobs === 'none') return;
      const rows = await database.em().execute<Array<{ id: string }>>('select id from workflow_runs where organization_id = ? order by created_at', [organizationId]);
      for (let i = 0; i < rows.length; i += 5000) {
        await boss.insert(QUEUES.workflowStep, rows.slice(i, i + 5000).map((r) => ({ data: { runId: r.id }, ...(jobs ? { startAfter: jobs.startAfter } : {}) })));
      }
    },
    /** `heapMb`: the worker's V8 old-space bound (--max-old-space-size), to show a run fits in it. */
    async startWorker(batch = 8, queue: string = QUEUES.workflowStep, heapMb?: number): Promise<ChildProcess> {
      const child = fork(new URL('./workflow-worker.ts', import.meta.url), [BENCH_URL, String(batch), queue],
        { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], ...(heapMb ? { execArgv: [...process.execArgv, `--max-old-space-size=${heapMb}`] } : {}) });
      await once(child, 'message');
      workers.push(child);
      return child;
    },
    async count(sql: string): Promise<number> {
      const [row] = await database.em().execute<Array<{ n: string | number }>>(sql, [organizationId]);
      return Number(row?.n ?? 0);
    },
    async close(): Promise<void> {
      for (const child of workers) if (child.exitCode === null && child.signalCode === null) { child.send('stop'); await Promise.race([once(child, 'exit'), sleep(5_000)]); child.kill('SIGKILL'); }
      await boss.stop({ graceful: false, close: true } as never).catch(() => undefined);
      await database.close();
    },
  };
}
