import { QUEUES } from '../../core/ports/job-queue.ts';
import type { ProcessContactImport } from '../../core/use-cases/contacts/process-contact-import.ts';
import type { JobHandler } from './job-handler.ts';

/** contact-import: one job per upload; a retried job resumes after the last committed batch. */
export function contactImportHandler(process: ProcessContactImport): JobHandler {
  return {
    queue: QUEUES.contactImport,
    batchSize: 1,
    async handle(data) {
      const importId = typeof data['importId'] === 'string' ? data['importId'] : null;
      if (importId) await process.execute(importId);
    },
  };
}
