import type { EventTrigger } from '../../domain/notification-event.ts';
import { normalizePhone } from '../../domain/phone.ts';
import { INBOUND_CHANNELS } from '../../domain/conversation.ts';
import { targetIndex, waitKeys, type WorkflowStep, type WorkflowStepRun } from '../../domain/workflow.ts';
import { QUEUES } from '../../ports/job-queue.ts';
import type { Repositories } from '../../ports/storage.ts';
import { OPEN_PIXEL_URL } from '../links/link-tracking.ts';
import { finishStep, type StepDecision, type StepEnv } from './workflow-step-kinds.ts';

type WaitStep = Extract<WorkflowStep, { type: 'wait' }>;

/** What a read, reply or click wait watches: its wake-up key, and when the event first happened (null: not yet). */
interface Watch { key: string; happenedAt(): Promise<Date | null> }

const earliest = (dates: ReadonlyArray<Date | null | undefined>): Date | null =>
  dates.filter((d): d is Date => d instanceof Date).sort((a, b) => a.getTime() - b.getTime())[0] ?? null;

/** The messages the latest send step's trigger sent (the first channel, its retries and fallbacks). */
async function triggerMessages(tx: Repositories, trigger: EventTrigger, channels?: readonly string[]) {
  return (await tx.eventTriggers.listSteps(trigger.organizationId, trigger.id))
    .filter((s) => s.messageId !== null && (!channels || channels.includes(s.channel))).map((s) => s.messageId!);
}

async function watchOf(tx: Repositories, env: StepEnv, kind: 'read' | 'reply' | 'click', trigger: EventTrigger, send: WorkflowStepRun): Promise<Watch | null> {
  const org = env.run.organizationId;
  if (kind === 'read') {
    // The item of the trigger's IN_APP message read (archived counts: it is read too) in the subscriber's inbox.
    const subscriberId = trigger.plan.find((p) => p.channel === 'IN_APP')?.recipient;
    if (!subscriberId) return null;
    return {
      key: waitKeys.read(subscriberId),
      happenedAt: async () => earliest(await Promise.all((await triggerMessages(tx, trigger, ['IN_APP'])).map(async (id) => (await tx.inbox.findByMessage(org, id))?.readAt))),
    };
  }
  if (kind === 'click') {
    // The first counted click on a tracked link of any message of the trigger (an email open is not a click).
    return {
      key: waitKeys.click(trigger.id),
      happenedAt: async () => {
        const links = (await Promise.all((await triggerMessages(tx, trigger)).map((id) => tx.trackedLinks.listForMessage(org, id)))).flat();
        return earliest(links.filter((l) => l.url !== OPEN_PIXEL_URL && l.clicks > 0).map((l) => l.firstClickedAt));
      },
    };
  }
  // A reply: an inbound SMS or WhatsApp message from the recipient's phone, received after the send step.
  const contact = env.run.request.contactId ? await tx.contacts.findById(org, env.run.request.contactId) : null;
  const candidates = [...trigger.plan.filter((p) => p.channel === 'SMS' || p.channel === 'WHATSAPP' || p.channel === 'VOICE').map((p) => p.recipient), contact?.phone, env.run.request.to];
  const phone = candidates.map((c) => (c ? normalizePhone(c, env.run.request.countryCode) : null)).find((p) => p?.ok);
  if (!phone?.ok) return null;
  const e164 = phone.phone.e164;
  return {
    key: waitKeys.reply(e164),
    happenedAt: async () => earliest(await Promise.all(INBOUND_CHANNELS.map(async (channel) => {
      const at = (await tx.conversations.findByAddress(org, channel, e164))?.lastInboundAt;
      return at && at.getTime() >= send.startedAt.getTime() ? at : null;
    }))),
  };
}

/**
 * A `wait` for a read, a reply or a click of the latest send step's message (docs/workflows.md). Every job of
 * the run (the first, a wake-up from where the event is recorded, the timeout) checks the event itself: it
 * goes to `onEvent` when the event happened no later than the deadline, to `onTimeout` once the deadline has
 * passed without one, and otherwise waits with `waitingFor` = its key. Deciding by the event's own time makes
 * the outcome the same whichever job comes first. No send before it, or no address to watch: `FAILED`, `onTimeout` at once.
 */
export async function eventWaitStep(env: StepEnv, step: WaitStep & { for: 'read' | 'reply' | 'click' }): Promise<StepDecision> {
  const { run, tx, now } = env;
  const go = async (outcome: string, target: WaitStep['onEvent'], detail: Record<string, unknown> = {}): Promise<StepDecision> => {
    await finishStep(env, 'wait', outcome, detail);
    return { next: targetIndex(target, env.index, run.steps.length), patch: { waitingFor: null } };
  };
  const send = (await tx.workflows.listSteps(run.organizationId, run.id)).filter((s) => s.index < env.index && s.triggerId).pop();
  const trigger = send?.triggerId ? await tx.eventTriggers.findById(run.organizationId, send.triggerId) : null;
  const watch = trigger && send ? await watchOf(tx, env, step.for, trigger, send) : null;
  if (!watch) return go('FAILED', step.onTimeout, { for: step.for, reason: step.for === 'read' ? 'the send step did not reach an in-app inbox' : step.for === 'reply' ? 'no phone number to receive a reply from' : 'no send step before the wait' });

  await tx.workflows.lockWaitKeys(run.organizationId, [watch.key]);
  const deadline = env.existing?.resumeAt ?? new Date(now.getTime() + step.timeoutSeconds * 1000);
  const at = await watch.happenedAt();
  if (at && at.getTime() <= deadline.getTime()) return go('EVENT', step.onEvent, { at: at.toISOString() });
  if (deadline.getTime() <= now.getTime() + 500) return go('TIMEOUT', step.onTimeout);
  if (!env.existing) {
    await tx.workflows.claimStep({
      runId: run.id, organizationId: run.organizationId, index: env.index, type: 'wait', status: 'WAITING', outcome: 'WAITING', messageId: null, triggerId: null,
      resumeAt: deadline, detail: { for: step.for, key: watch.key }, startedAt: now, finishedAt: null,
    });
  }
  // The timeout job (an early or woken job arms it again: whichever job comes at the deadline decides).
  await tx.jobs.enqueue(QUEUES.workflowStep, { runId: run.id }, { startAfterSeconds: Math.max(1, Math.ceil((deadline.getTime() - now.getTime()) / 1000)) });
  return { wait: deadline, patch: { waitingFor: watch.key } };
}
