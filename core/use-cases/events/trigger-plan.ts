import type { LinkTrackingOption } from '../links/link-tracking.ts';
import type { OptOutLinks } from '../consent/opt-out-link-text.ts';
import { AppError } from '../../errors.ts';
import type { Channel } from '../../domain/channel.ts';
import type { Contact } from '../../domain/contact.ts';
import type { EventTrigger, NotificationEvent, PlannedChannel } from '../../domain/notification-event.ts';
import { normalizeRecipient, PHONE_CHANNELS } from '../../domain/recipient.ts';
import type { Template } from '../../domain/template.ts';
import { chooseTemplateContent } from '../../domain/template-variant.ts';
import type { PricingRule } from '../../domain/pricing.ts';
import { prepareMessage, type PreparedMessage } from '../messaging/message-preparation.ts';

/** Where a recipient can be reached: an address per channel, or why not. */
export type Reach = Record<Channel, { ok: true; recipient: string } | { ok: false; reason: string }>;

/** The kind of address a bare `to` is, read from its shape. */
export type AddressKind = 'phone' | 'email' | 'push';

export function addressKind(to: string): AddressKind {
  if (to.includes('@')) return 'email';
  if (/^[+\d\s().-]+$/.test(to) && /\d/.test(to)) return 'phone';
  return 'push';
}

const KIND_CHANNELS: Record<AddressKind, readonly Channel[]> = { phone: PHONE_CHANNELS, email: ['EMAIL'], push: ['PUSH'] };
const KIND_NAMES: Record<AddressKind, string> = { phone: 'a phone number', email: 'an email address', push: 'a push device token' };
const NO_SUBSCRIBER = { ok: false as const, reason: 'no subscriberId was given (nor a contact attribute subscriberId)' };
const NOBODY = { ok: false as const, reason: 'neither to nor contactId was given' };

/** Only a subscriber id (IN_APP): every other channel unreachable. */
export function reachOfSubscriberOnly(): Reach {
  return { SMS: NOBODY, WHATSAPP: NOBODY, VOICE: NOBODY, EMAIL: NOBODY, PUSH: NOBODY, IN_APP: NO_SUBSCRIBER };
}

/**
 * IN_APP reach: the request's subscriberId, else the contact's attribute `subscriberId` (docs/inbox.md).
 * An opted-out contact stays unreachable. A malformed subscriberId is a VALIDATION_ERROR on `subscriberId`.
 */
export function withSubscriber(reach: Reach, subscriberId: string | undefined, contact: Contact | null): Reach {
  if (contact?.optedOutAt) return reach;
  const id = subscriberId ?? contact?.attributes['subscriberId'];
  if (id === undefined) return reach;
  const normalized = normalizeRecipient('IN_APP', id);
  if (!normalized.ok) {
    if (subscriberId === undefined) return { ...reach, IN_APP: { ok: false, reason: `the contact's subscriberId ${normalized.reason}` } };
    throw new AppError('VALIDATION_ERROR', `subscriberId ${normalized.reason}`, { fieldErrors: { subscriberId: [normalized.reason] }, formErrors: [] });
  }
  return { ...reach, IN_APP: { ok: true, recipient: normalized.recipient } };
}

/**
 * A bare `to`: a phone number reaches SMS, WHATSAPP and VOICE, an email address EMAIL, anything else
 * is read as a push device token (PUSH). A malformed address of its kind is a VALIDATION_ERROR on `to`.
 */
export function reachOfAddress(to: string, countryCode: string): Reach {
  const kind = addressKind(to);
  const channel = KIND_CHANNELS[kind][0]!;
  const normalized = normalizeRecipient(channel, to, countryCode);
  if (!normalized.ok) {
    const reason = kind === 'push' ? 'is neither a phone number, an email address nor a valid push device token' : normalized.reason;
    throw new AppError('VALIDATION_ERROR', `to ${reason}`, { fieldErrors: { to: [reason] }, formErrors: [] });
  }
  const reach = {} as Reach;
  for (const c of ['SMS', 'WHATSAPP', 'VOICE', 'EMAIL', 'PUSH'] as const) {
    reach[c] = KIND_CHANNELS[kind].includes(c) ? { ok: true, recipient: normalized.recipient } : { ok: false, reason: `to is ${KIND_NAMES[kind]}` };
  }
  reach.IN_APP = NO_SUBSCRIBER;
  return reach;
}

/**
 * A contact: its phone for SMS, WHATSAPP and VOICE, its email for EMAIL, its fcmToken for PUSH. A
 * contact who opted out is reachable on no channel (its addresses may not all be on the suppression
 * list, and a fallback must not go around the opt-out).
 */
export function reachOfContact(contact: Contact): Reach {
  if (contact.optedOutAt) {
    const out = { ok: false as const, reason: 'the contact opted out' };
    return { SMS: out, WHATSAPP: out, VOICE: out, EMAIL: out, PUSH: out, IN_APP: out };
  }
  const phone = contact.phone ? { ok: true as const, recipient: contact.phone } : { ok: false as const, reason: 'the contact has no phone' };
  return {
    SMS: phone, WHATSAPP: phone, VOICE: phone,
    EMAIL: contact.email ? { ok: true, recipient: contact.email } : { ok: false, reason: 'the contact has no email' },
    PUSH: contact.fcmToken ? { ok: true, recipient: contact.fcmToken } : { ok: false, reason: 'the contact has no fcmToken' },
    IN_APP: NO_SUBSCRIBER,
  };
}

/**
 * The channels a trigger will try, in order: the first reachable channel of channelPriority (or, when
 * none is, the first reachable fallback channel), then the reachable fallbackRules.channels, once each.
 * Nothing reachable -> RECIPIENT_UNREACHABLE listing every channel with its reason.
 */
export function planChannels(event: NotificationEvent, reach: Reach): { plan: PlannedChannel[]; unreachable: Array<{ channel: Channel; reason: string }> } {
  const all = [...new Set([...event.channelPriority, ...event.fallbackRules.channels])];
  const unreachable = all.flatMap((channel) => {
    const r = reach[channel];
    return r.ok ? [] : [{ channel, reason: r.reason }];
  });
  const reachable = (c: Channel) => reach[c].ok;
  const primary = event.channelPriority.find(reachable) ?? event.fallbackRules.channels.find(reachable);
  if (!primary) {
    throw new AppError('RECIPIENT_UNREACHABLE', `The recipient cannot be reached on any channel of event "${event.slug}" (${all.join(', ')})`,
      { event: event.slug, unreachable });
  }
  const channels = [primary, ...event.fallbackRules.channels.filter((c) => c !== primary && reachable(c))];
  return {
    plan: [...new Set(channels)].map((channel) => ({ channel, recipient: (reach[channel] as { recipient: string }).recipient })),
    unreachable,
  };
}

/** Contact fields a template may use, overridden by the request's own variables. */
export function triggerVariables(contact: Contact | null, variables: Record<string, string> | undefined): Record<string, string> {
  const fromContact: Record<string, string> = {};
  if (contact) {
    for (const [key, value] of Object.entries({ firstName: contact.firstName, lastName: contact.lastName, phone: contact.phone, email: contact.email })) {
      if (value) fromContact[key] = value;
    }
  }
  return { ...fromContact, ...variables };
}

/**
 * Renders and prices one planned channel through the send path's own preparation. The event's
 * template is used on every channel of the plan (its text, with the trigger's variables); sent by
 * email or in-app, a template without a subject takes the event's name as subject (the bell's title).
 */
export function prepareStep(trigger: Pick<EventTrigger, 'plan' | 'templateId' | 'variables' | 'countryCode' | 'fallbackSubject' | 'locale'>, template: Template | null,
  step: number, rules: readonly PricingRule[], optOut?: OptOutLinks, links?: LinkTrackingOption): PreparedMessage {
  const planned = trigger.plan[step]!;
  const forChannel = template && template.channel !== planned.channel ? { ...template, channel: planned.channel } : template;
  return prepareMessage({
    channel: planned.channel, to: planned.recipient, templateId: trigger.templateId ?? undefined, variables: trigger.variables,
    countryCode: trigger.countryCode, locales: [trigger.locale], subject: (planned.channel === 'EMAIL' || planned.channel === 'IN_APP' || planned.channel === 'PUSH') && !(template ? chooseTemplateContent(template, [trigger.locale]).subject : null) ? trigger.fallbackSubject : undefined,
  }, forChannel, rules, '', { optOut, links });
}
