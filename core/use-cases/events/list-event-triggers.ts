import * as v from 'valibot';
import { AppError } from '../../errors.ts';
import { parseInput } from '../../validation.ts';
import { triggerStatus } from '../../domain/notification-event.ts';
import type { Storage } from '../../ports/storage.ts';
import { withoutBlankValues } from '../delivery-logs/delivery-log-query.ts';

export const MAX_TRIGGERS_LISTED = 100;

export const ListEventTriggersInput = v.object({
  limit: v.optional(v.pipe(v.string('must be a whole number'), v.description(`Triggers to list, 1 to ${MAX_TRIGGERS_LISTED} (default 20)`),
    v.regex(/^\d{1,9}$/, 'must be a whole number'), v.transform(Number),
    v.minValue(1, 'must be at least 1'), v.maxValue(MAX_TRIGGERS_LISTED, `must be at most ${MAX_TRIGGERS_LISTED}`)), '20'),
});

/**
 * GET /events/{id}/triggers: the event's most recent triggers (newest first, at most 100), each with
 * its status and current channel; GET /events/triggers/{id} has the steps and delivery logs.
 * Another organization's event -> NOT_FOUND.
 */
export class ListEventTriggers {
  readonly #deps: { storage: Storage };
  constructor(deps: { storage: Storage }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }, eventId: string, rawQuery: unknown) {
    const query = parseInput(ListEventTriggersInput, withoutBlankValues(rawQuery));
    const { storage } = this.#deps;
    const event = eventId.length <= 64 ? await storage.notificationEvents.findById(scope.organizationId, eventId) : null;
    if (!event) throw new AppError('NOT_FOUND', 'Notification event not found');
    const triggers = await storage.eventTriggers.listByEvent(scope.organizationId, event.id, query.limit);
    const currentIds = triggers.flatMap((t) => (t.currentMessageId ? [t.currentMessageId] : []));
    const messages = new Map((currentIds.length > 0 ? await storage.messages.findManyByIds(scope.organizationId, currentIds) : []).map((m) => [m.id, m]));
    return triggers.map((t) => ({
      id: t.id, event: t.eventSlug, contactId: t.contactId, to: t.to,
      status: triggerStatus(t, t.currentMessageId ? messages.get(t.currentMessageId)?.status ?? null : null),
      channel: t.plan[t.currentStep]?.channel ?? null, plan: t.plan.map((p) => p.channel), currentMessageId: t.currentMessageId,
      retryAt: t.retryAt?.toISOString() ?? null, createdAt: t.createdAt.toISOString(), updatedAt: t.updatedAt.toISOString(),
    }));
  }
}
