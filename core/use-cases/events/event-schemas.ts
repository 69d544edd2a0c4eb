import * as v from 'valibot';
import { AppError } from '../../errors.ts';
import { CHANNELS, type Channel } from '../../domain/channel.ts';
import { DEFAULT_RETRY_RULES, EVENT_SLUG_PATTERN, RETRY_ATTEMPTS_MAX, RETRY_DELAY_MAX_SECONDS, type NotificationEvent } from '../../domain/notification-event.ts';
import { templateView, type Template } from '../../domain/template.ts';
import { notificationEventView } from '../../domain/notification-event.ts';
import type { Repositories } from '../../ports/storage.ts';
import { channelSchema } from '../messaging/message-preparation.ts';
import { UNREAD_FALLBACK_MAX_MINUTES } from '../../domain/inbox.ts';

export const EVENT_SLUG_MAX = 100;

export const slugSchema = v.pipe(v.string('must be a string'), v.trim(), v.minLength(1, 'is required'),
  v.maxLength(EVENT_SLUG_MAX, `must be at most ${EVENT_SLUG_MAX} characters`),
  v.regex(EVENT_SLUG_PATTERN, 'must contain only lowercase letters, digits, dot, underscore and hyphen'));

const channelListSchema = v.pipe(
  v.array(channelSchema, 'must be an array of channels'), v.maxLength(CHANNELS.length, `must list at most ${CHANNELS.length} channels`),
  v.check((list) => new Set(list).size === list.length, 'must not repeat a channel'));

export const channelPrioritySchema = v.pipe(channelListSchema, v.minLength(1, 'must list at least one channel'));

const integer = (min: number, max: number) => v.pipe(v.number('must be a number'), v.integer('must be a whole number'),
  v.minValue(min, `must be at least ${min}`), v.maxValue(max, `must be at most ${max}`));

/** docs/events.md "Retries": attempts per channel (1 = no re-send), delay of the n-th re-send backoffSeconds * backoffMultiplier^(n-1). */
export const retryRulesSchema = v.object({
  attempts: v.optional(integer(1, RETRY_ATTEMPTS_MAX), DEFAULT_RETRY_RULES.attempts),
  backoffSeconds: v.optional(integer(0, RETRY_DELAY_MAX_SECONDS), DEFAULT_RETRY_RULES.backoffSeconds),
  backoffMultiplier: v.optional(v.pipe(v.number('must be a number'), v.minValue(1, 'must be at least 1'), v.maxValue(10, 'must be at most 10')),
    DEFAULT_RETRY_RULES.backoffMultiplier),
}, 'must be an object { attempts, backoffSeconds, backoffMultiplier }');

export const fallbackRulesSchema = v.object({
  channels: v.optional(channelListSchema, () => []),
  unreadAfterMinutes: v.optional(v.nullable(integer(1, UNREAD_FALLBACK_MAX_MINUTES))),
}, 'must be an object { channels: [...], unreadAfterMinutes }');

export const descriptionSchema = v.nullable(v.pipe(v.string('must be a string'), v.trim(), v.maxLength(1_000, 'must be at most 1000 characters')));
export const templateIdSchema = v.nullable(v.pipe(v.string('must be a string'), v.minLength(1, 'must not be empty'), v.maxLength(64, 'is too long')));

/** The template must be one of the organization's (another organization's id reads as not found). */
export async function checkTemplate(repos: Pick<Repositories, 'templates'>, organizationId: string, templateId: string | null): Promise<void> {
  if (templateId === null) return;
  if (!await repos.templates.findById(organizationId, templateId)) {
    throw new AppError('VALIDATION_ERROR', 'templateId: template not found', { fieldErrors: { templateId: ['template not found'] }, formErrors: [] });
  }
}

export type NotificationEventView = ReturnType<typeof notificationEventView> & {
  template: Pick<ReturnType<typeof templateView>, 'id' | 'name' | 'channel' | 'status' | 'category' | 'variables'> | null;
};

/** An event with its linked template (null when none, or when the template no longer exists). */
export function eventWithTemplate(event: NotificationEvent, template: Template | null): NotificationEventView {
  return {
    ...notificationEventView(event),
    template: template ? { id: template.id, name: template.name, channel: template.channel, status: template.status, category: template.category, variables: template.variables } : null,
  };
}

export function uniqueChannels(list: readonly Channel[]): Channel[] {
  return [...new Set(list)];
}
