import { QUEUES } from '../../core/ports/job-queue.ts';
import type { AdvanceVerification } from '../../core/use-cases/verify/advance-verification.ts';
import type { JobHandler } from './job-handler.ts';

/** verify-fallback: the next channel of a verification whose passcode was not delivered in time; stale jobs are ignored. */
export function verifyFallbackHandler(advance: AdvanceVerification, batchSize: number): JobHandler {
  return {
    queue: QUEUES.verifyFallback,
    batchSize,
    async handle(data) {
      const { organizationId, verificationId, sendAttempts } = data as { organizationId?: unknown; verificationId?: unknown; sendAttempts?: unknown };
      if (typeof organizationId !== 'string' || typeof verificationId !== 'string' || typeof sendAttempts !== 'number') return; // malformed: nothing to do
      await advance.execute({ organizationId, verificationId, sendAttempts });
    },
  };
}
