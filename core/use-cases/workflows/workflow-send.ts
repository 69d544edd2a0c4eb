import { optOutOption } from '../consent/opt-out-link-text.ts';
import type { Contact } from '../../domain/contact.ts';
import type { EventTrigger, NotificationEvent, TriggerStep } from '../../domain/notification-event.ts';
import { DEFAULT_RETRY_RULES } from '../../domain/notification-event.ts';
import { digestLines, type WorkflowRun, type WorkflowStep } from '../../domain/workflow.ts';
import type { Message } from '../../domain/message.ts';
import type { Repositories } from '../../ports/storage.ts';
import { linkTrackingOption } from '../links/link-tracking.ts';
import { acceptMessagesIn } from '../messaging/accept-messages.ts';
import type { SendContext } from '../messaging/send-context.ts';
import { planChannels, prepareStep, reachOfAddress, reachOfContact, reachOfSubscriberOnly, triggerVariables, withSubscriber } from '../events/trigger-plan.ts';
import type { TriggerDeps } from '../events/trigger-steps.ts';

type SendStep = Extract<WorkflowStep, { type: 'send' }>;

export function runContext(run: WorkflowRun): SendContext {
  return { organizationId: run.organizationId, userId: run.userId, apiKeyId: run.apiKeyId, isSandbox: run.isSandbox };
}

/** The variables a step renders with: the contact's fields, the trigger's variables, a wait's signal, a digest's items. */
export function runVariables(run: WorkflowRun, contact: Contact | null, itemVariable?: string): Record<string, string> {
  const variables = { ...triggerVariables(contact, run.request.variables), ...(run.signal?.variables ?? {}) };
  if (run.digest) {
    variables['digestCount'] = String(run.digest.count);
    variables['digestItems'] = digestLines(run.digest.items, itemVariable);
  }
  return variables;
}

/**
 * A workflow's send step, inside the step's transaction: the recipient's channels planned as an event
 * trigger's are (channel priority, reachable fallbacks), the first message accepted through the send
 * pipeline (`acceptMessagesIn`: tracked links, screening, consent, send windows, pricing, wallet debit, delivery job) with
 * the idempotency key `workflow:<run>:<index>`, and recorded as an event trigger with its first step, so
 * later failures fall back exactly as an event's do (docs/events.md). The message is delivered by the worker.
 */
export async function acceptSendStep(tx: Repositories, deps: TriggerDeps, run: WorkflowRun, index: number, step: SendStep,
  digestItemVariable: string | undefined): Promise<{ message: Message; trigger: EventTrigger }> {
  const { ids, clock, secrets } = deps;
  const org = run.organizationId;
  const contact = run.request.contactId ? await tx.contacts.findById(org, run.request.contactId) : null;
  const base = run.request.to !== null ? reachOfAddress(run.request.to, run.request.countryCode) : contact ? reachOfContact(contact) : reachOfSubscriberOnly();
  const reach = withSubscriber(base, run.request.subscriberId ?? undefined, contact);
  const asEvent = { slug: run.eventSlug, channelPriority: step.channels, fallbackRules: { channels: step.fallbackChannels } } as Pick<NotificationEvent, 'slug' | 'channelPriority' | 'fallbackRules'>;
  const { plan, unreachable } = planChannels(asEvent as NotificationEvent, reach);
  const template = step.templateId ? await tx.templates.findById(org, step.templateId) : null;
  const variables = runVariables(run, contact, digestItemVariable);
  const countryCode = contact && run.request.to === null ? contact.countryCode : run.request.countryCode;
  const basis = { plan, templateId: step.templateId, variables, countryCode, fallbackSubject: run.eventSlug };
  // Only `tx` inside the step's transaction: on the embedded PGlite (one connection) a read through deps.pricing would wait forever.
  // URLs become tracked links as in any send (docs/links.md), so a `wait` for a click has a link to watch.
  const links = await linkTrackingOption(deps, org, tx.linkSettings);
  const prepared = { ...prepareStep(basis, template, 0, await tx.pricing.listActive(), optOutOption(deps, org), links), sendAt: null };
  const key = `workflow:${run.id}:${index}`;
  const accepted = await acceptMessagesIn(tx, deps, runContext(run), [prepared],
    { async: true, idempotency: { key, requestHash: secrets.sha256(key) }, batchId: ids.next() });
  const message = accepted.messages[0]!;
  const now = clock.now();
  const trigger: EventTrigger = {
    id: ids.next(), organizationId: org, eventId: run.eventId, eventSlug: run.eventSlug, contactId: contact?.id ?? null, to: run.request.to,
    ...basis, unreachable, retryRules: DEFAULT_RETRY_RULES, apiKeyId: run.apiKeyId, userId: run.userId, isSandbox: run.isSandbox,
    state: 'ACTIVE', currentStep: 0, currentAttempt: 1, currentMessageId: message.id, retryAt: null, version: 1, createdAt: now, updatedAt: now,
  };
  const triggerStep: TriggerStep = {
    id: ids.next(), triggerId: trigger.id, organizationId: org, sequence: 1, channel: message.channel, recipient: message.recipient,
    attempt: 1, messageId: message.id, errorCode: null, errorMessage: null, createdAt: now,
  };
  await tx.eventTriggers.insert(trigger);
  await tx.eventTriggers.insertStep(triggerStep);
  return { message, trigger };
}
