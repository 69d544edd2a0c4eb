import { QUEUES } from '../../core/ports/job-queue.ts';
import type { Storage } from '../../core/ports/storage.ts';
import type { ApplyDeliveryReport } from '../../core/use-cases/messaging/apply-delivery-report.ts';
import type { Logger } from '../logger.ts';
import type { ProviderRuntime } from '../provider-runtime.ts';
import type { JobHandler } from './job-handler.ts';

/** Messages older than this are no longer polled (vendors stop reporting). */
const POLL_WINDOW_MS = 72 * 3_600_000;
/** Messages polled per provider per run. */
const POLL_BATCH = 200;

/** Every minute: asks polling vendors (no callbacks) for the status of their SENT messages. */
export function deliveryStatusPollHandler(runtime: ProviderRuntime, storage: Storage, apply: ApplyDeliveryReport, logger: Logger): JobHandler {
  return {
    queue: QUEUES.deliveryStatusPoll,
    batchSize: 1,
    async handle() {
      const since = new Date(Date.now() - POLL_WINDOW_MS);
      for (const adapter of runtime.allAdapters()) {
        if (!adapter.fetchStatus) continue;
        let polled = 0; let applied = 0;
        for (const message of await storage.messageStatus.listAwaitingReport(adapter.name, since, POLL_BATCH)) {
          polled += 1;
          const report = await adapter.fetchStatus(message.providerMessageId ?? '').catch((error: unknown) => {
            logger.warn({ provider: adapter.name, err: error }, 'status poll failed');
            return null;
          });
          if (report && await apply.execute(adapter.name, report, `poll:${adapter.name}`)) applied += 1;
        }
        if (polled > 0) logger.info({ event: 'provider.dlr', provider: adapter.name, polled, applied }, 'delivery reports polled');
      }
    },
  };
}
