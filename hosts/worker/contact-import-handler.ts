import { QUEUES } from '../../core/ports/job-queue.ts';
import type { ProcessContactImport } from '../../core/use-cases/contacts/process-contact-import.ts';
import type { Logger } from '../logger.ts';
import type { JobHandler } from './job-handler.ts';

/** contact-import: one job per upload; a retried job resumes after the last committed batch. */
export function contactImportHandler(process: ProcessContactImport, logger: Logger): JobHandler {
  return {
    queue: QUEUES.contactImport,
    batchSize: 1,
    async handle(data) {
      const importId = typeof data['importId'] === 'string' ? data['importId'] : null;
      if (!importId) return;
      const job = await process.execute(importId);
      if (job) {
        logger[job.status === 'FAILED' ? 'warn' : 'info']({ event: 'contact.import', importId, organizationId: job.organizationId, status: job.status,
          rowsDone: job.rowsDone, created: job.created, updated: job.updated, skipped: job.skipped, ...(job.failureReason ? { failureReason: job.failureReason } : {}) }, 'contact import step');
      }
    },
  };
}
