import * as v from 'valibot';
import { AppError, isAppError } from '../../errors.ts';
import { parseInput } from '../../validation.ts';
import type { NotificationEventPatch } from '../../ports/notification-event-repository.ts';
import { channelPrioritySchema, checkTemplate, descriptionSchema, eventWithTemplate, fallbackRulesSchema, retryRulesSchema, slugSchema, templateIdSchema,
  type NotificationEventView } from './event-schemas.ts';
import { slugExists, type EventDeps } from './create-event.ts';

/** PATCH /events/{id}: every field optional; `templateId: null` unlinks the template; `isActive` (re)activates or deactivates. */
export const UpdateEventInput = v.object({
  name: v.optional(v.pipe(v.string('must be a string'), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(200, 'must be at most 200 characters'))),
  slug: v.optional(slugSchema),
  description: v.optional(descriptionSchema),
  channelPriority: v.optional(channelPrioritySchema),
  templateId: v.optional(templateIdSchema),
  retryRules: v.optional(retryRulesSchema),
  fallbackRules: v.optional(fallbackRulesSchema),
  isActive: v.optional(v.boolean('must be true or false')),
});

/** PATCH /events/{id} (and POST /events/{id}/deactivate through `deactivate`). Triggers already running keep the rules they started with. */
export class UpdateEvent {
  readonly #deps: EventDeps;
  constructor(deps: EventDeps) { this.#deps = deps; }

  async execute(scope: { organizationId: string }, id: string, raw: unknown): Promise<NotificationEventView> {
    const input = parseInput(UpdateEventInput, raw);
    const { storage, clock } = this.#deps;
    const current = id.length <= 64 ? await storage.notificationEvents.findById(scope.organizationId, id) : null;
    if (!current) throw new AppError('NOT_FOUND', 'Notification event not found');
    if (input.templateId !== undefined) await checkTemplate(storage, scope.organizationId, input.templateId);
    if (input.slug !== undefined && input.slug !== current.slug) {
      const other = await storage.notificationEvents.findBySlug(scope.organizationId, input.slug);
      if (other && other.id !== id) throw slugExists(input.slug);
    }
    const patch: NotificationEventPatch = { updatedAt: clock.now() };
    for (const key of ['name', 'slug', 'channelPriority', 'templateId', 'retryRules', 'fallbackRules', 'isActive'] as const) {
      if (input[key] !== undefined) (patch as Record<string, unknown>)[key] = input[key];
    }
    if (input.description !== undefined) patch.description = input.description || null;
    let updated;
    try {
      updated = await storage.notificationEvents.update(scope.organizationId, id, patch);
    } catch (error) {
      if (isAppError(error) && error.code === 'CONFLICT' && input.slug) throw slugExists(input.slug);
      throw error;
    }
    if (!updated) throw new AppError('NOT_FOUND', 'Notification event not found');
    return eventWithTemplate(updated, updated.templateId ? await storage.templates.findById(scope.organizationId, updated.templateId) : null);
  }

  /** POST /events/{id}/deactivate: isActive false (idempotent). Triggers are then answered EVENT_INACTIVE; history is kept. */
  deactivate(scope: { organizationId: string }, id: string): Promise<NotificationEventView> {
    return this.execute(scope, id, { isActive: false });
  }
}
