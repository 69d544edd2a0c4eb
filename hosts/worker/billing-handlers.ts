import { QUEUES } from '../../core/ports/job-queue.ts';
import type { GenerateMonthlyStatements } from '../../core/use-cases/billing/generate-monthly-statements.ts';
import type { SendLowBalanceAlert } from '../../core/use-cases/billing/send-low-balance-alert.ts';
import type { Logger } from '../logger.ts';
import type { JobHandler } from './job-handler.ts';

/** Monthly (SCHEDULES, 1st of the month 00:15 UTC): every organization's statement for the month before; `{ period: 'YYYY-MM' }` reruns one month. */
export function monthlyStatementsHandler(generate: GenerateMonthlyStatements, logger: Logger): JobHandler {
  return {
    queue: QUEUES.monthlyStatements,
    batchSize: 1,
    async handle(data) {
      const period = typeof data['period'] === 'string' ? data['period'] : undefined;
      const run = await generate.execute(period, (progress) => logger.info(progress, 'monthly statements: progress'));
      logger.info(run, 'monthly statements: done');
    },
  };
}

/** One low-balance email to the owners per crossing (the send path enqueues the job with the debit). */
export function lowBalanceAlertHandler(alert: SendLowBalanceAlert, concurrency: number): JobHandler {
  return {
    queue: QUEUES.lowBalanceAlert,
    batchSize: Math.max(1, Math.min(concurrency, 10)),
    async handle(data) {
      const organizationId = typeof data['organizationId'] === 'string' ? data['organizationId'] : null;
      const balanceAfter = typeof data['balanceAfter'] === 'number' ? data['balanceAfter'] : null;
      if (organizationId === null || balanceAfter === null) return; // malformed job: nothing to retry
      await alert.execute(organizationId, balanceAfter);
    },
  };
}
