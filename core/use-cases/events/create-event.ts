import * as v from 'valibot';
import { AppError, isAppError } from '../../errors.ts';
import { fields, parseInput } from '../../validation.ts';
import type { NotificationEvent } from '../../domain/notification-event.ts';
import type { Clock } from '../../ports/clock.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import type { Storage } from '../../ports/storage.ts';
import {
  channelPrioritySchema, checkTemplate, descriptionSchema, eventWithTemplate, fallbackRulesSchema, retryRulesSchema, slugSchema, templateIdSchema,
  type NotificationEventView,
} from './event-schemas.ts';

/** Spec "Notification event (create)"; retryRules and fallbackRules as in docs/events.md. */
export const CreateEventInput = v.object({
  name: fields.requiredText(200),
  slug: slugSchema,
  description: v.optional(descriptionSchema, null),
  channelPriority: v.optional(channelPrioritySchema, () => ['SMS' as const]),
  templateId: v.optional(templateIdSchema, null),
  retryRules: v.optional(retryRulesSchema, () => ({ attempts: 1, backoffSeconds: 60, backoffMultiplier: 2 })),
  fallbackRules: v.optional(fallbackRulesSchema, () => ({ channels: [] })),
  isActive: v.optional(v.boolean('must be true or false'), true),
});

export interface EventDeps {
  storage: Storage;
  ids: IdGenerator;
  clock: Clock;
}

/**
 * POST /events. The slug is unique per organization (SLUG_EXISTS); templateId must name one of the
 * organization's templates (VALIDATION_ERROR otherwise). The template's approval is checked when the
 * event is triggered, like any send.
 */
export class CreateEvent {
  readonly #deps: EventDeps;
  constructor(deps: EventDeps) { this.#deps = deps; }

  async execute(scope: { organizationId: string }, raw: unknown): Promise<NotificationEventView> {
    const input = parseInput(CreateEventInput, raw);
    const { storage, ids, clock } = this.#deps;
    await checkTemplate(storage, scope.organizationId, input.templateId);
    if (await storage.notificationEvents.findBySlug(scope.organizationId, input.slug)) throw slugExists(input.slug);
    const now = clock.now();
    const event: NotificationEvent = {
      id: ids.next(), organizationId: scope.organizationId, name: input.name, slug: input.slug, description: input.description || null,
      channelPriority: input.channelPriority, templateId: input.templateId, retryRules: input.retryRules, fallbackRules: input.fallbackRules,
      isActive: input.isActive, createdAt: now, updatedAt: now,
    };
    try {
      await storage.notificationEvents.insert(event);
    } catch (error) {
      if (isAppError(error) && error.code === 'CONFLICT') throw slugExists(input.slug); // a concurrent create won the slug
      throw error;
    }
    return eventWithTemplate(event, event.templateId ? await storage.templates.findById(scope.organizationId, event.templateId) : null);
  }
}

export function slugExists(slug: string): AppError {
  return new AppError('SLUG_EXISTS', `An event with slug "${slug}" already exists in this organization`, { slug });
}
