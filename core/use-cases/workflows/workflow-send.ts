import { optOutOption } from '../consent/opt-out-link-text.ts';
import type { Contact } from '../../domain/contact.ts';
import type { EventTrigger, NotificationEvent, TriggerStep } from '../../domain/notification-event.ts';
import { DEFAULT_RETRY_RULES } from '../../domain/notification-event.ts';
import { digestLines, type WorkflowRun, type WorkflowStep } from '../../domain/workflow.ts';
import type { Message } from '../../domain/message.ts';
import type { PreparedMessage } from '../messaging/message-preparation.ts';
import type { Repositories } from '../../ports/storage.ts';
import { acceptMessagesIn } from '../messaging/accept-messages.ts';
import type { SendContext } from '../messaging/send-context.ts';
import { planChannels, prepareStep, reachOfAddress, reachOfContact, reachOfSubscriberOnly, triggerVariables, withSubscriber } from '../events/trigger-plan.ts';
import type { TriggerDeps } from '../events/trigger-steps.ts';
import { linkTrackingOption } from '../links/link-tracking.ts';

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

/** A send step's message, prepared (planned, rendered, priced) but not accepted, with what its event trigger records. */
export interface PreparedSendStep {
  prepared: PreparedMessage;
  basis: { plan: EventTrigger['plan']; templateId: string | null; variables: Record<string, string>; countryCode: string; fallbackSubject: string };
  unreachable: EventTrigger['unreachable'];
  contactId: string | null;
  /** The idempotency key of the step's message: `workflow:<run>:<index>`. */
  key: string;
}

/** The first half of a send step: the recipient's channels planned as an event trigger's are, the message prepared. */
export async function prepareSendStep(tx: Repositories, deps: TriggerDeps, run: WorkflowRun, index: number, step: SendStep,
  digestItemVariable: string | undefined, activePricing?: Awaited<ReturnType<Repositories['pricing']['listActive']>>): Promise<PreparedSendStep> {
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
  const prepared = { ...prepareStep(basis, template, 0, activePricing ?? await tx.pricing.listActive(), optOutOption(deps, org), links), sendAt: null };
  return { prepared, basis, unreachable, contactId: contact?.id ?? null, key: `workflow:${run.id}:${index}` };
}

/** The second half: the accepted message recorded as an event trigger with its first step (its fallbacks then work as an event's). */
export async function recordSendTrigger(tx: Repositories, deps: TriggerDeps, run: WorkflowRun, send: PreparedSendStep, message: Message): Promise<EventTrigger> {
  const { ids, clock } = deps;
  const now = clock.now();
  const trigger: EventTrigger = {
    id: ids.next(), organizationId: run.organizationId, eventId: run.eventId, eventSlug: run.eventSlug, contactId: send.contactId, to: run.request.to,
    ...send.basis, unreachable: send.unreachable, retryRules: DEFAULT_RETRY_RULES, apiKeyId: run.apiKeyId, userId: run.userId, isSandbox: run.isSandbox,
    state: 'ACTIVE', currentStep: 0, currentAttempt: 1, currentMessageId: message.id, retryAt: null, version: 1, createdAt: now, updatedAt: now,
  };
  const triggerStep: TriggerStep = {
    id: ids.next(), triggerId: trigger.id, organizationId: run.organizationId, sequence: 1, channel: message.channel, recipient: message.recipient,
    attempt: 1, messageId: message.id, errorCode: null, errorMessage: null, createdAt: now,
  };
  await tx.eventTriggers.insert(trigger);
  await tx.eventTriggers.insertStep(triggerStep);
  return trigger;
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
  const send = await prepareSendStep(tx, deps, run, index, step, digestItemVariable);
  const accepted = await acceptMessagesIn(tx, deps, runContext(run), [send.prepared],
    { async: true, idempotency: { key: send.key, requestHash: deps.secrets.sha256(send.key) }, batchId: deps.ids.next() });
  const message = accepted.messages[0]!;
  return { message, trigger: await recordSendTrigger(tx, deps, run, send, message) };
}
