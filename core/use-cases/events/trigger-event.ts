import { linkTrackingOption } from '../links/link-tracking.ts';
import { optOutOption } from '../consent/opt-out-link-text.ts';
import * as v from 'valibot';
import { AppError } from '../../errors.ts';
import { fields, parseInput } from '../../validation.ts';
import { canonicalJson } from '../../domain/canonical-json.ts';
import type { Contact } from '../../domain/contact.ts';
import { EVENT_SLUG_PATTERN, type EventTrigger, type TriggerStep } from '../../domain/notification-event.ts';
import { acceptMessagesIn } from '../messaging/accept-messages.ts';
import { countryCodeSchema, idempotencyKeySchema, variablesSchema } from '../messaging/message-preparation.ts';
import type { SendContext } from '../messaging/send-context.ts';
import { sendAtOf, sendAtSchema } from '../messaging/send-at.ts';
import { deliverInline } from '../messaging/send-message.ts';
import { isFinalFailure, takeNextStep, type TriggerDeps } from './trigger-steps.ts';
import { EVENT_SLUG_MAX } from './event-schemas.ts';
import { planChannels, prepareStep, reachOfAddress, reachOfContact, reachOfSubscriberOnly, triggerVariables, withSubscriber } from './trigger-plan.ts';
import { localeSchema } from '../../domain/locale.ts';
import { chooseTemplateContent } from '../../domain/template-variant.ts';
import { localePreferences } from '../templates/locale-preferences.ts';
import { scheduleUnreadFallback } from './unread-fallback.ts';
import { SUBSCRIBER_ID_MAX } from '../../domain/inbox.ts';
import { loadTriggerView, type TriggerView } from './trigger-view.ts';
import { claimTriggerKey } from './trigger-idempotency.ts';
import type { Repositories } from '../../ports/storage.ts';


/** Thrown by TriggerEvent when `options.claim` answers false: this fan-out recipient was triggered by an earlier attempt; nothing was written. */
export class RecipientAlreadyTriggered extends Error {
  constructor() { super('This recipient was already triggered'); this.name = 'RecipientAlreadyTriggered'; }
}

export interface TriggerOptions {
  /**
   * Called first inside the trigger's transaction with the trigger's id (a fan-out records its recipient, docs/workflows.md):
   * false rolls back and throws RecipientAlreadyTriggered.
   */
  claim?: (tx: Repositories, triggerId: string) => Promise<boolean>;
}

/** Spec "Event trigger (request)", plus an optional countryCode (default GH) to read a local phone number in `to`. */
export const TriggerEventInput = v.pipe(v.object({
  event: v.pipe(v.string('must be a string'), v.trim(), v.minLength(1, 'is required'), v.maxLength(EVENT_SLUG_MAX, `must be at most ${EVENT_SLUG_MAX} characters`),
    v.regex(EVENT_SLUG_PATTERN, 'must be an event slug: lowercase letters, digits, dot, underscore and hyphen')),
  to: v.optional(v.pipe(v.string('must be a string'), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(4096, 'is too long'))),
  contactId: v.optional(fields.id()),
  /** The IN_APP recipient (docs/inbox.md): the tenant's id of the person; a contact's attribute `subscriberId` otherwise. */
  subscriberId: v.optional(v.pipe(v.string('must be a string'), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(SUBSCRIBER_ID_MAX, `must be at most ${SUBSCRIBER_ID_MAX} characters`))),
  variables: variablesSchema,
  countryCode: v.optional(countryCodeSchema, 'GH'),
  idempotencyKey: idempotencyKeySchema,
  /** The first message not before this time, at most 35 days ahead (docs/scheduling.md); fallbacks follow its outcome as usual. */
  sendAt: sendAtSchema,
  /** Renders the event's template in this locale when it has it (docs/templates.md, "Locales"); before the contact's and the organization's. */
  locale: v.optional(localeSchema),
  /**
   * Relates triggers (docs/workflows.md): a trigger with a key cancels the active workflow runs with the same key whose
   * workflow lists its event in `cancelOn`, and resumes those waiting for its event; a run started by it carries the key.
   */
  correlationKey: v.optional(v.pipe(v.string('must be a string'), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(200, 'must be at most 200 characters'))),
}), v.check((input) => input.to !== undefined || input.contactId !== undefined || input.subscriberId !== undefined, 'to or contactId is required'));

/**
 * POST /events/trigger, and the library entry point to fire an event without HTTP.
 *
 * Finds the active event by slug (unknown -> NOT_FOUND, deactivated -> EVENT_INACTIVE), resolves
 * the recipient (a contact of the organization, or the bare `to` read by its shape), plans the
 * channels (docs/events.md), renders the event's template with the variables over the contact's
 * fields, and sends the first channel through the send pipeline (screening, pricing, wallet debit,
 * delivery), recording the trigger, its step and the message in one transaction. The message is
 * delivered at once (like a synchronous send); when it fails at send time the fallback runs at once
 * too (takeNextStep), when it fails later the worker's `trigger-fallback` job runs it.
 * With a future `sendAt` the first message is SCHEDULED (charged now, no inline delivery) and released
 * by the worker at that time; its outcome drives the fallbacks as usual.
 * With an idempotencyKey the same request within 24 hours answers the same trigger (replayed);
 * another body with the same key -> IDEMPOTENCY_KEY_REUSED.
 */
export class TriggerEvent {
  readonly #deps: TriggerDeps;
  constructor(deps: TriggerDeps) { this.#deps = deps; }

  async execute(ctx: SendContext, raw: unknown, options: TriggerOptions = {}): Promise<{ trigger: TriggerView; replayed: boolean }> {
    const input = parseInput(TriggerEventInput, raw);
    const { storage, clock, ids, secrets, pricing } = this.#deps;
    const sendAt = sendAtOf(input.sendAt, clock.now());
    const event = await storage.notificationEvents.findBySlug(ctx.organizationId, input.event);
    if (!event) throw new AppError('NOT_FOUND', `No notification event with slug "${input.event}"`, { event: input.event });
    if (!event.isActive) throw new AppError('EVENT_INACTIVE', `The notification event "${event.slug}" is deactivated`, { event: event.slug });
    if (!event.templateId) {
      throw new AppError('VALIDATION_ERROR', `event: "${event.slug}" has no template; link one with PATCH /events/{id}`,
        { fieldErrors: { event: ['has no template; link one with PATCH /events/{id}'] }, formErrors: [] });
    }
    let contact: Contact | null = null;
    if (input.contactId !== undefined) {
      contact = await storage.contacts.findById(ctx.organizationId, input.contactId);
      if (!contact) throw new AppError('NOT_FOUND', 'Contact not found', { contactId: input.contactId });
    }
    const base = input.to !== undefined ? reachOfAddress(input.to, input.countryCode) : contact ? reachOfContact(contact) : reachOfSubscriberOnly();
    const reach = withSubscriber(base, input.subscriberId, contact);
    const { plan, unreachable } = planChannels(event, reach);
    const template = await storage.templates.findById(ctx.organizationId, event.templateId);
    const variables = triggerVariables(contact, input.variables);
    const countryCode = contact && input.to === undefined ? contact.countryCode : input.countryCode;
    const preferences = await localePreferences(storage, ctx.organizationId, template, { locale: input.locale, contact,
      to: input.to !== undefined && plan[0] ? { channel: plan[0].channel, address: input.to, countryCode: input.countryCode } : undefined });
    const locale = template && preferences.length > 0 ? chooseTemplateContent(template, preferences).locale : null;
    const basis = { plan, templateId: event.templateId, variables, countryCode, fallbackSubject: event.name, locale };
    const prepared = { ...prepareStep(basis, template, 0, await pricing.listActive(), optOutOption(this.#deps, ctx.organizationId),
      await linkTrackingOption(this.#deps, ctx.organizationId)), sendAt: sendAt ?? null };

    const { idempotencyKey, ...request } = input;
    const requestHash = idempotencyKey ? secrets.sha256(canonicalJson(request)) : null;
    const recorded = await storage.transaction(async (tx) => {
      const now = clock.now();
      const triggerId = ids.next();
      if (idempotencyKey && requestHash) {
        const earlierId = await claimTriggerKey(tx, ctx.organizationId, { idempotencyKey, requestHash, kind: 'trigger', answerId: triggerId, now });
        const earlier = earlierId ? await tx.eventTriggers.findById(ctx.organizationId, earlierId) : null;
        if (earlier) return { replayed: true as const, trigger: earlier };
      }
      if (options.claim && !await options.claim(tx, triggerId)) throw new RecipientAlreadyTriggered();
      const accepted = await acceptMessagesIn(tx, this.#deps, ctx, [prepared], { async: !this.#deps.deliverNow, idempotency: null, batchId: ids.next() });
      const message = accepted.messages[0]!;
      const trigger: EventTrigger = {
        id: triggerId, organizationId: ctx.organizationId, eventId: event.id, eventSlug: event.slug, contactId: contact?.id ?? null, to: input.to ?? null,
        ...basis, unreachable, retryRules: event.retryRules, apiKeyId: ctx.apiKeyId, userId: ctx.userId, isSandbox: ctx.isSandbox,
        state: 'ACTIVE', currentStep: 0, currentAttempt: 1, currentMessageId: message.id, retryAt: null, version: 1, createdAt: now, updatedAt: now,
      };
      const step: TriggerStep = {
        id: ids.next(), triggerId: trigger.id, organizationId: ctx.organizationId, sequence: 1, channel: message.channel, recipient: message.recipient,
        attempt: 1, messageId: message.id, errorCode: null, errorMessage: null, createdAt: now,
      };
      await tx.eventTriggers.insert(trigger);
      await tx.eventTriggers.insertStep(step);
      await scheduleUnreadFallback(tx, trigger, event.fallbackRules.unreadAfterMinutes, message);
      return { replayed: false as const, trigger, message };
    });
    if (recorded.replayed) return { trigger: await loadTriggerView(storage, recorded.trigger), replayed: true };

    let message = recorded.message;
    if (message.status === 'QUEUED' && this.#deps.deliverNow) message = await deliverInline({ deliverNow: this.#deps.deliverNow, storage }, message);
    if (isFinalFailure(message)) await takeNextStep(this.#deps, recorded.trigger.id, message.id);
    const latest = (await storage.eventTriggers.findById(ctx.organizationId, recorded.trigger.id)) ?? recorded.trigger;
    return { trigger: await loadTriggerView(storage, latest), replayed: false };
  }
}
