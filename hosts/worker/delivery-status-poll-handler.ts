import { QUEUES } from '../../core/ports/job-queue.ts';
import type { Storage } from '../../core/ports/storage.ts';
import type { ApplyDeliveryReport } from '../../core/use-cases/messaging/apply-delivery-report.ts';
import type { VendorAdapter } from '../../core/ports/vendor-adapter.ts';
import type { Logger } from '../logger.ts';
import type { ProviderRuntime } from '../provider-runtime.ts';
import type { JobHandler } from './job-handler.ts';

/** Messages older than this are no longer polled (vendors stop reporting). */
const POLL_WINDOW_MS = 72 * 3_600_000;
/** Messages polled per provider per run. */
const POLL_BATCH = 200;
/** Receipt vendors (Expo) keep receipts about a day: messages older than this are not asked about. */
const RECEIPT_WINDOW_MS = 24 * 3_600_000;
/** Messages read per page for a receipt vendor, and pages per run (the adapter asks in its own batch size). */
const RECEIPT_PAGE = 1_000;
const RECEIPT_PAGES = 5;

/**
 * Receipts of a batch vendor (Expo): its SENT messages of the last day, oldest first, a page at a
 * time, asked in the adapter's batch size; each receipt applied like a delivery report (an error
 * receipt fails the message, a DeviceNotRegistered also removes the dead token from the contacts).
 */
async function pollReceipts(adapter: VendorAdapter, storage: Storage, apply: ApplyDeliveryReport, logger: Logger): Promise<void> {
  let since = new Date(Date.now() - RECEIPT_WINDOW_MS);
  let polled = 0; let applied = 0;
  for (let page = 0; page < RECEIPT_PAGES; page += 1) {
    const messages = await storage.messageStatus.listAwaitingReport(adapter.name, since, RECEIPT_PAGE);
    const ids = messages.flatMap((m) => (m.providerMessageId ? [m.providerMessageId] : []));
    if (ids.length === 0) break;
    polled += ids.length;
    const { reports, failure } = await adapter.fetchReceipts!(ids);
    for (const report of reports) if (await apply.execute(adapter.name, report, `receipt:${adapter.name}`)) applied += 1;
    if (failure) { logger.warn({ provider: adapter.name, failure }, 'receipt poll failed'); break; }
    const last = messages[messages.length - 1]?.sentAt;
    if (messages.length < RECEIPT_PAGE || !last || last.getTime() <= since.getTime()) break;
    since = last;
  }
  if (polled > 0) logger.info({ event: 'provider.receipts', provider: adapter.name, polled, applied }, 'push receipts polled');
}

/** Every minute: asks polling vendors (no callbacks) for the status of their SENT messages, and receipt vendors (Expo) for their receipts. */
export function deliveryStatusPollHandler(runtime: ProviderRuntime, storage: Storage, apply: ApplyDeliveryReport, logger: Logger): JobHandler {
  return {
    queue: QUEUES.deliveryStatusPoll,
    batchSize: 1,
    async handle() {
      const since = new Date(Date.now() - POLL_WINDOW_MS);
      for (const adapter of runtime.allAdapters()) {
        if (adapter.fetchReceipts) { await pollReceipts(adapter, storage, apply, logger); continue; }
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
