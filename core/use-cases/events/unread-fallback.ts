import type { EventTrigger } from '../../domain/notification-event.ts';
import type { Message } from '../../domain/message.ts';
import { QUEUES } from '../../ports/job-queue.ts';
import type { Repositories } from '../../ports/storage.ts';

/**
 * When a trigger's IN_APP message is recorded and the plan has a channel after it: enqueues
 * `inbox-unread-fallback` for `unreadAfterMinutes` later, in the same transaction. The job
 * (AdvanceUnreadTrigger) sends the next channel only if the message is still the trigger's current
 * one and its inbox item is still unread; otherwise it changes nothing.
 */
export async function scheduleUnreadFallback(tx: Repositories, trigger: Pick<EventTrigger, 'id' | 'plan' | 'currentStep'>,
  unreadAfterMinutes: number | null | undefined, message: Pick<Message, 'id' | 'channel' | 'status'>): Promise<void> {
  if (message.channel !== 'IN_APP' || !unreadAfterMinutes || trigger.currentStep + 1 >= trigger.plan.length) return;
  if (message.status === 'REJECTED' || message.status === 'FAILED') return;
  await tx.jobs.enqueue(QUEUES.inboxUnreadFallback, { triggerId: trigger.id, messageId: message.id }, { startAfterSeconds: unreadAfterMinutes * 60 });
}

/** Unread: not stored yet (never reached the feed) or stored and neither read nor archived. */
export async function isUnreadInApp(repos: Pick<Repositories, 'inbox'>, message: Pick<Message, 'organizationId' | 'id'>): Promise<boolean> {
  const item = await repos.inbox.findByMessage(message.organizationId, message.id);
  return !item || (item.readAt === null && item.archivedAt === null);
}
