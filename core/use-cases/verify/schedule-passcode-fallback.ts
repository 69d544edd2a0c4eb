import type { Message } from '../../domain/message.ts';
import { QUEUES } from '../../ports/job-queue.ts';
import type { Repositories } from '../../ports/storage.ts';

/**
 * Called by the delivery path in the transaction that makes a message finally FAILED (DeliverMessage,
 * ApplyDeliveryReport): when the message is the latest passcode of a PENDING verification, enqueues
 * its `verify-fallback` job at once instead of after `fallbackAfterSeconds`, so the next channel gets
 * a code now, or, with every channel failed, the verification becomes FAILED and `verification.failed`
 * is announced (docs/verify.md). One indexed lookup, and only for failed OTP messages. AdvanceVerification
 * ignores the job once another send happened, so the delayed job of the same send changes nothing.
 */
export async function schedulePasscodeFallback(tx: Pick<Repositories, 'verifications' | 'jobs'>, message: Pick<Message, 'id' | 'organizationId' | 'category'>): Promise<void> {
  if (message.category !== 'OTP') return;
  const verification = await tx.verifications.findPendingByLastMessage(message.organizationId, message.id);
  if (!verification) return;
  await tx.jobs.enqueue(QUEUES.verifyFallback, { organizationId: verification.organizationId, verificationId: verification.id, sendAttempts: verification.sendAttempts },
    { lane: 'OTP', tenant: verification.organizationId });
}
