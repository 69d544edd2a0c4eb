import { QUEUES } from '../../core/ports/job-queue.ts';
import type { AdvanceUnreadTrigger } from '../../core/use-cases/events/advance-unread-trigger.ts';
import type { JobHandler } from './job-handler.ts';
import { triggerStepHandler } from './trigger-fallback-handler.ts';

/** inbox-unread-fallback: an event trigger's IN_APP message still unread after unreadAfterMinutes; the next channel is sent (stale, read or repeated jobs change nothing). */
export function inboxUnreadFallbackHandler(advance: AdvanceUnreadTrigger, batchSize: number): JobHandler {
  return triggerStepHandler(QUEUES.inboxUnreadFallback, advance, batchSize);
}
