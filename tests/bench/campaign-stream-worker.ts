import { openDatabase } from '../../adapters/postgres/database.ts';
import { startBoss } from '../../adapters/queue/pg-boss-factory.ts';
import { QUEUES } from '../../core/ports/job-queue.ts';
import { buildWorkerContainer, WORKER } from '../../hosts/worker/container.ts';
import { startWorker } from '../../hosts/worker/worker.ts';
import { createLogger } from '../../hosts/logger.ts';
import { loadProviders } from '../../hosts/messaging-bindings.ts';
import { testConfig } from '../support/test-config.ts';

/**
 * The worker process of `npm run bench:campaign` (campaign-stream-bench.ts starts it): the real worker
 * container and pg-boss worker loop, with only the campaign-run handler registered, so its RSS is the
 * fan-out's (deliveries are left queued: they are a separate process's work in this measurement).
 */
const url = process.argv[2]!;
const database = await openDatabase({ databaseUrl: url, poolSize: 4 });
const boss = await startBoss(database, { supervise: false, schedule: false });
const config = testConfig({ databaseUrl: url, fraudNewTenantDays: 0, fraudRecipientPerHour: 1_000, logLevel: 'silent' });
const logger = createLogger('silent');
const infra = { database, boss, async close() { await boss.stop({ graceful: false, close: true } as never).catch(() => undefined); await database.close(); } };
const container = buildWorkerContainer(config, logger, infra);
await loadProviders(container);
const handlers = container.getAll(WORKER.handlers).filter((h) => h.queue === QUEUES.campaignRun);
const worker = await startWorker(boss, handlers, logger, []);
process.send?.('ready');
process.on('message', (m) => {
  if (m !== 'stop') return;
  void (async () => { await worker.stop(); await infra.close(); process.exit(0); })();
});
