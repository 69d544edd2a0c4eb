import { openDatabase } from '../../adapters/postgres/database.ts';
import { startBoss } from '../../adapters/queue/pg-boss-factory.ts';
import { QUEUES } from '../../core/ports/job-queue.ts';
import { buildWorkerContainer, WORKER } from '../../hosts/worker/container.ts';
import { startWorker } from '../../hosts/worker/worker.ts';
import { INFRA } from '../../hosts/tokens.ts';
import { ResumeDueDelays } from '../../core/use-cases/workflows/resume-due-delays.ts';
import { createLogger } from '../../hosts/logger.ts';
import { loadProviders } from '../../hosts/messaging-bindings.ts';
import { testConfig } from '../support/test-config.ts';

/**
 * A worker process of the workflow benches (workflow-digest-bench.ts, workflow-delay-bench.ts, workflow-fan-out-bench.ts):
 * the real worker container and pg-boss loop with only one handler (workflow-step unless argv names another queue) and,
 * for workflow-step, the delay resumer, so messages the runs accept stay queued (their delivery is not measured).
 * argv: database URL, batch size, queue.
 */
const url = process.argv[2]!;
const batch = Number(process.argv[3] ?? 8);
const queue = process.argv[4] ?? QUEUES.workflowStep;
const database = await openDatabase({ databaseUrl: url, poolSize: 10 });
const boss = await startBoss(database, { supervise: false, schedule: false });
const config = testConfig({ databaseUrl: url, fraudNewTenantDays: 0, fraudRecipientPerHour: 1_000_000, fraudNewTenantPerHour: 100_000_000, logLevel: 'silent', workerConcurrency: batch });
const logger = createLogger('silent');
const infra = { database, boss, async close() { await boss.stop({ graceful: false, close: true } as never).catch(() => undefined); await database.close(); } };
const container = buildWorkerContainer(config, logger, infra);
await loadProviders(container);
const handlers = container.getAll(WORKER.handlers).filter((h) => h.queue === queue);
// The workflow-step queue and the delay resumer (the worker's periodic task that resumes due delays set-wise).
// RESUME_PARALLEL / RESUME_CHUNK (environment, A/B runs only) replace the worker's defaults.
const resumeOptions = { ...(process.env['RESUME_PARALLEL'] ? { parallel: Number(process.env['RESUME_PARALLEL']) } : {}), ...(process.env['RESUME_CHUNK'] ? { chunk: Number(process.env['RESUME_CHUNK']) } : {}) };
const tasks = container.getAll(WORKER.tasks).filter((t) => queue === QUEUES.workflowStep && t.name === 'resume-workflow-delays')
  .map((t) => (Object.keys(resumeOptions).length === 0 ? t : { ...t, run: ((r) => () => r.execute())(new ResumeDueDelays({ storage: container.get(INFRA.storage), clock: container.get(INFRA.clock) }, resumeOptions)) }));
const worker = await startWorker(boss, handlers, logger, tasks, 0.5);
process.send?.('ready');
process.on('message', (m) => {
  if (m !== 'stop') return;
  void (async () => { await worker.stop(); await infra.close(); process.exit(0); })();
});
