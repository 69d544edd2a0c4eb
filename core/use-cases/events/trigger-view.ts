import { deliveryLogView, type Message } from '../../domain/message.ts';
import { triggerStatus, type EventTrigger, type TriggerStep } from '../../domain/notification-event.ts';
import type { Storage } from '../../ports/storage.ts';

/** A trigger as the API shows it: its status, plan, every step and the delivery log of each message sent. */
export function triggerView(trigger: EventTrigger, steps: readonly TriggerStep[], messages: readonly Message[]) {
  const byId = new Map(messages.map((m) => [m.id, m]));
  const current = trigger.currentMessageId ? byId.get(trigger.currentMessageId) ?? null : null;
  return {
    id: trigger.id, event: trigger.eventSlug, eventId: trigger.eventId, contactId: trigger.contactId, to: trigger.to,
    status: triggerStatus(trigger, current?.status ?? null),
    channel: trigger.plan[trigger.currentStep]?.channel ?? null,
    plan: trigger.plan.map((p) => p.channel),
    unreachable: trigger.unreachable,
    retryRules: trigger.retryRules,
    retryAt: trigger.retryAt?.toISOString() ?? null,
    steps: steps.map((s) => ({
      sequence: s.sequence, channel: s.channel, recipient: s.recipient, attempt: s.attempt, messageId: s.messageId,
      status: s.messageId ? byId.get(s.messageId)?.status ?? null : 'SKIPPED',
      errorCode: s.messageId ? byId.get(s.messageId)?.errorCode ?? null : s.errorCode,
      errorMessage: s.messageId ? byId.get(s.messageId)?.errorMessage ?? null : s.errorMessage,
      at: s.createdAt.toISOString(),
    })),
    deliveryLogs: steps.flatMap((s) => (s.messageId && byId.has(s.messageId) ? [deliveryLogView(byId.get(s.messageId)!)] : [])),
    createdAt: trigger.createdAt.toISOString(), updatedAt: trigger.updatedAt.toISOString(),
  };
}
export type TriggerView = ReturnType<typeof triggerView>;

/** Loads a trigger's steps and messages and renders it. */
export async function loadTriggerView(storage: Pick<Storage, 'eventTriggers' | 'messages'>, trigger: EventTrigger): Promise<TriggerView> {
  const steps = await storage.eventTriggers.listSteps(trigger.organizationId, trigger.id);
  const messageIds = steps.flatMap((s) => (s.messageId ? [s.messageId] : []));
  const messages = messageIds.length > 0 ? await storage.messages.findManyByIds(trigger.organizationId, messageIds) : [];
  return triggerView(trigger, steps, messages);
}
