import type { Channel, DeliveryStatus } from './channel.ts';

/**
 * How often one channel is tried before the trigger falls back to the next one. `attempts` counts
 * sends on the channel (1 = no re-send); the n-th re-send waits backoffSeconds * backoffMultiplier^(n-1)
 * seconds (capped at RETRY_DELAY_MAX_SECONDS). Each re-send is a new message through the whole send
 * pipeline (screened and charged again: the failed one was refunded). Only a FAILED message is
 * re-sent; a REJECTED one (fraud, suppression) moves straight to the next channel.
 */
export interface RetryRules {
  attempts: number;
  backoffSeconds: number;
  backoffMultiplier: number;
}

export const DEFAULT_RETRY_RULES: RetryRules = { attempts: 1, backoffSeconds: 60, backoffMultiplier: 2 };
export const RETRY_ATTEMPTS_MAX = 5;
export const RETRY_DELAY_MAX_SECONDS = 86_400;

/**
 * The channels tried, once each, in order, after the chosen channel failed. `unreadAfterMinutes`: an
 * IN_APP message still unread that many minutes after it was sent counts as failed, and the next
 * channel is sent (docs/inbox.md, "Unread fallback"); null or absent: an IN_APP message never falls back once stored.
 */
export interface FallbackRules {
  channels: Channel[];
  unreadAfterMinutes?: number | null | undefined;
}

/** A named notification event a tenant configures and an integration triggers by slug (spec section 2). */
export interface NotificationEvent {
  id: string;
  organizationId: string;
  name: string;
  /** Lowercase letters, digits, dot, underscore, hyphen; unique per organization. */
  slug: string;
  description: string | null;
  channelPriority: Channel[];
  templateId: string | null;
  retryRules: RetryRules;
  fallbackRules: FallbackRules;
  isActive: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export const EVENT_SLUG_PATTERN = /^[a-z0-9._-]+$/;

/**
 * Where a trigger stands. ACTIVE: its current message is in flight or done; WAITING_RETRY: the current
 * message failed and a re-send on the same channel is due at `retryAt`; EXHAUSTED: every planned
 * channel was tried and failed.
 */
export type TriggerState = 'ACTIVE' | 'WAITING_RETRY' | 'EXHAUSTED';

/** One channel of a trigger's plan, with the recipient address it is sent to. */
export interface PlannedChannel {
  channel: Channel;
  recipient: string;
}

/** One firing of an event. Steps (one per message, or per channel skipped at send time) are kept apart. */
export interface EventTrigger {
  id: string;
  organizationId: string;
  eventId: string;
  eventSlug: string;
  contactId: string | null;
  /** The bare `to` of the request, when given. */
  to: string | null;
  /** The request's variables merged over the contact's fields: what every step renders with. */
  variables: Record<string, string>;
  countryCode: string;
  templateId: string | null;
  /** The template locale resolved when it fired (request `locale`, contact's, organization's default): every step renders in it. */
  locale?: string | null;
  /** Subject used when a non-EMAIL template is sent by email (the event's name). */
  fallbackSubject: string;
  /** The chosen channel first, then the reachable fallback channels. */
  plan: PlannedChannel[];
  /** Channels of the event the recipient could not be reached on, and why. */
  unreachable: Array<{ channel: Channel; reason: string }>;
  retryRules: RetryRules;
  /** Who triggered it: later steps (in the worker) send as the same principal (sandbox stays sandbox). */
  apiKeyId: string | null;
  userId: string | null;
  isSandbox: boolean;
  state: TriggerState;
  /** Index into `plan` and the send number on that channel (1-based) of the current message. */
  currentStep: number;
  currentAttempt: number;
  currentMessageId: string | null;
  retryAt: Date | null;
  /** Bumped by every change: advancing is compare-and-set on it, so two workers never both advance. */
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

/** A message a trigger sent (or a channel it skipped at send time, messageId null, with the reason). */
export interface TriggerStep {
  id: string;
  triggerId: string;
  organizationId: string;
  /** Order of the step within the trigger (1, 2 ...). */
  sequence: number;
  channel: Channel;
  recipient: string;
  /** Send number on this channel (1 = first, 2 = first retry ...). */
  attempt: number;
  messageId: string | null;
  errorCode: string | null;
  errorMessage: string | null;
  createdAt: Date;
}

export type TriggerPatch = Partial<Pick<EventTrigger, 'state' | 'currentStep' | 'currentAttempt' | 'currentMessageId' | 'retryAt'>> & { updatedAt: Date };

/** The n-th re-send's delay (n = 1 for the first re-send), in seconds. */
export function retryDelaySeconds(rules: RetryRules, resend: number): number {
  return Math.min(RETRY_DELAY_MAX_SECONDS, Math.round(rules.backoffSeconds * rules.backoffMultiplier ** Math.max(0, resend - 1)));
}

/**
 * The status a trigger shows: FAILED once every channel failed, PENDING while a message is queued or
 * a retry or fallback is still to come, otherwise its current message's SENT or DELIVERED.
 */
export function triggerStatus(trigger: EventTrigger, current: DeliveryStatus | null): 'PENDING' | 'SENT' | 'DELIVERED' | 'FAILED' {
  if (trigger.state === 'EXHAUSTED') return 'FAILED';
  if (trigger.state === 'ACTIVE' && (current === 'SENT' || current === 'DELIVERED')) return current;
  return 'PENDING';
}

export function notificationEventView(e: NotificationEvent) {
  return {
    id: e.id, name: e.name, slug: e.slug, description: e.description, channelPriority: e.channelPriority, templateId: e.templateId,
    retryRules: e.retryRules, fallbackRules: e.fallbackRules, isActive: e.isActive,
    createdAt: e.createdAt.toISOString(), updatedAt: e.updatedAt.toISOString(),
  };
}
