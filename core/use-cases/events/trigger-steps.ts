import { linkTrackingOption } from '../links/link-tracking.ts';
import { optOutOption } from '../consent/opt-out-link-text.ts';
import { isAppError } from '../../errors.ts';
import type { Message } from '../../domain/message.ts';
import { retryDelaySeconds, type EventTrigger, type TriggerStep } from '../../domain/notification-event.ts';
import type { Template } from '../../domain/template.ts';
import { QUEUES } from '../../ports/job-queue.ts';
import type { Repositories } from '../../ports/storage.ts';
import { acceptMessagesIn } from '../messaging/accept-messages.ts';
import type { PreparedMessage } from '../messaging/message-preparation.ts';
import type { SendContext } from '../messaging/send-context.ts';
import { deliverInline, type SendDeps } from '../messaging/send-message.ts';
import { prepareStep } from './trigger-plan.ts';
import { isUnreadInApp, scheduleUnreadFallback } from './unread-fallback.ts';

/** The send pipeline's ports; without `deliverNow` every step is queued for the worker instead of delivered at once. */
export type TriggerDeps = Omit<SendDeps, 'deliverNow'> & { deliverNow?: SendDeps['deliverNow'] };

/** Upper bound on steps taken in one call (plan of at most 5 channels, at most 5 sends each). */
const MAX_STEPS_PER_CALL = 30;

export function isFinalFailure(message: Pick<Message, 'status'>): boolean {
  return message.status === 'FAILED' || message.status === 'REJECTED';
}

/**
 * Takes a trigger's next step after its current message failed: a re-send on the same channel when
 * retryRules allow one (after the backoff: then it only schedules a `trigger-fallback` job for
 * `retryAt`), otherwise the next channel of the plan at once; no channel left -> EXHAUSTED.
 * Each step is a new message through the whole send pipeline (acceptMessagesIn: screening, pricing,
 * wallet debit, delivery job), recorded as a step of the trigger in the same transaction.
 *
 * Shared by TriggerEvent (failure at send time) and AdvanceTrigger, the `trigger-fallback` job
 * (failure reported later by the worker or a delivery report). Safe to call twice for one failure: it acts
 * only when `failedMessageId` is still the trigger's current message, and the change is a
 * compare-and-set on the trigger's version, so exactly one caller takes the step.
 */
export async function takeNextStep(deps: TriggerDeps, triggerId: string, failedMessageId: string, options: { unreadInApp?: boolean } = {}): Promise<EventTrigger | null> {
  const { storage, clock } = deps;
  let failedId = failedMessageId;
  let unreadInApp = options.unreadInApp === true;
  for (let i = 0; i < MAX_STEPS_PER_CALL; i++) {
    const trigger = await storage.eventTriggers.findForAdvance(triggerId);
    if (!trigger || trigger.state === 'EXHAUSTED' || trigger.currentMessageId !== failedId) return trigger;
    let target: { step: number; attempt: number };
    if (trigger.state === 'WAITING_RETRY') {
      const waitMs = (trigger.retryAt?.getTime() ?? 0) - clock.now().getTime();
      if (waitMs > 1_000) { // the job came early (or twice): come back when the retry is due
        await storage.jobs.enqueue(QUEUES.triggerFallback, { triggerId, messageId: failedId }, { startAfterSeconds: Math.ceil(waitMs / 1000) });
        return trigger;
      }
      target = { step: trigger.currentStep, attempt: trigger.currentAttempt + 1 };
    } else {
      const current = await storage.messages.findById(trigger.organizationId, failedId);
      if (!current) return trigger;
      if (!isFinalFailure(current)) {
        // The unread fallback (docs/inbox.md): an IN_APP message nobody read in time counts as failed; the next channel is sent.
        if (!unreadInApp || !await isUnreadInApp(storage, current)) return trigger;
        target = { step: trigger.currentStep + 1, attempt: 1 };
      } else if (current.status === 'FAILED' && trigger.currentAttempt < trigger.retryRules.attempts) {
        const delay = retryDelaySeconds(trigger.retryRules, trigger.currentAttempt);
        if (delay > 0) return scheduleRetry(deps, trigger, delay);
        target = { step: trigger.currentStep, attempt: trigger.currentAttempt + 1 };
      } else {
        target = { step: trigger.currentStep + 1, attempt: 1 };
      }
    }
    unreadInApp = false;
    const sent = await sendStep(deps, trigger, target);
    if (!sent) return storage.eventTriggers.findForAdvance(triggerId);
    let message = sent;
    if (message.status === 'QUEUED' && deps.deliverNow) message = await deliverInline({ deliverNow: deps.deliverNow, storage }, message);
    if (!isFinalFailure(message)) return storage.eventTriggers.findForAdvance(triggerId);
    failedId = message.id;
  }
  return storage.eventTriggers.findForAdvance(triggerId);
}

async function scheduleRetry(deps: TriggerDeps, trigger: EventTrigger, delaySeconds: number): Promise<EventTrigger | null> {
  const { storage, clock } = deps;
  return storage.transaction(async (tx) => {
    const now = clock.now();
    const updated = await tx.eventTriggers.advance(trigger.id, trigger.version, {
      state: 'WAITING_RETRY', retryAt: new Date(now.getTime() + delaySeconds * 1000), updatedAt: now,
    });
    if (updated) await tx.jobs.enqueue(QUEUES.triggerFallback, { triggerId: trigger.id, messageId: trigger.currentMessageId }, { startAfterSeconds: delaySeconds });
    return updated;
  });
}

/**
 * Sends the first channel from `target` on that can be prepared and accepted; channels that cannot
 * (the template no longer renders for it, the wallet cannot cover it ...) are recorded as skipped
 * steps. Returns the new message, or null when another caller advanced first or nothing was left
 * (then the trigger is EXHAUSTED).
 */
async function sendStep(deps: TriggerDeps, trigger: EventTrigger, target: { step: number; attempt: number }): Promise<Message | null> {
  const { storage, pricing, clock, ids } = deps;
  const template: Template | null = trigger.templateId ? await storage.templates.findById(trigger.organizationId, trigger.templateId) : null;
  const rules = await pricing.listActive();
  const links = await linkTrackingOption(deps, trigger.organizationId);
  const ctx: SendContext = { organizationId: trigger.organizationId, userId: trigger.userId, apiKeyId: trigger.apiKeyId, isSandbox: trigger.isSandbox };
  let sequence = (await storage.eventTriggers.listSteps(trigger.organizationId, trigger.id)).length;
  const skipped: TriggerStep[] = [];
  const skip = (step: number, attempt: number, code: string, message: string) => skipped.push({
    id: ids.next(), triggerId: trigger.id, organizationId: trigger.organizationId, sequence: ++sequence, channel: trigger.plan[step]!.channel,
    recipient: trigger.plan[step]!.recipient, attempt, messageId: null, errorCode: code, errorMessage: message, createdAt: clock.now(),
  });
  let { step, attempt } = target;
  while (step < trigger.plan.length) {
    let prepared: PreparedMessage;
    try {
      prepared = prepareStep(trigger, template, step, rules, optOutOption(deps, trigger.organizationId), links);
    } catch (error) {
      if (!isAppError(error)) throw error;
      skip(step, attempt, error.code, error.message);
      step += 1; attempt = 1;
      continue;
    }
    try {
      const result = await storage.transaction(async (tx) => {
        const now = clock.now();
        const claimed = await tx.eventTriggers.advance(trigger.id, trigger.version, {
          state: 'ACTIVE', currentStep: step, currentAttempt: attempt, retryAt: null, updatedAt: now,
        });
        if (!claimed) return { lost: true as const };
        const accepted = await acceptMessagesIn(tx, deps, ctx, [prepared], { async: !deps.deliverNow, idempotency: null, batchId: ids.next() });
        const message = accepted.messages[0]!;
        await tx.eventTriggers.advance(trigger.id, claimed.version, { currentMessageId: message.id, updatedAt: now });
        await recordSteps(tx, [...skipped, {
          id: ids.next(), triggerId: trigger.id, organizationId: trigger.organizationId, sequence: sequence + 1, channel: prepared.channel,
          recipient: prepared.recipient, attempt, messageId: message.id, errorCode: null, errorMessage: null, createdAt: now,
        }]);
        if (message.channel === 'IN_APP') {
          const event = await tx.notificationEvents.findById(trigger.organizationId, trigger.eventId);
          await scheduleUnreadFallback(tx, { ...trigger, currentStep: step }, event?.fallbackRules.unreadAfterMinutes, message);
        }
        return { lost: false as const, message };
      });
      return result.lost ? null : result.message;
    } catch (error) {
      // Not acceptable on this channel now (INSUFFICIENT_BALANCE, TEMPLATE_NOT_APPROVED ...): skip it. Infrastructure errors go to the job's retries.
      if (!isAppError(error) || error.retryable || error.code === 'INTERNAL_ERROR' || error.code === 'SERVICE_UNAVAILABLE') throw error;
      skip(step, attempt, error.code, error.message);
      step += 1; attempt = 1;
    }
  }
  await storage.transaction(async (tx) => {
    const exhausted = await tx.eventTriggers.advance(trigger.id, trigger.version, { state: 'EXHAUSTED', retryAt: null, updatedAt: clock.now() });
    if (exhausted) await recordSteps(tx, skipped);
  });
  return null;
}

async function recordSteps(tx: Repositories, steps: readonly TriggerStep[]): Promise<void> {
  for (const step of steps) await tx.eventTriggers.insertStep(step);
}
