import type { Template } from '../../domain/template.ts';
import type { Storage } from '../../ports/storage.ts';
import { eventWithTemplate, type NotificationEventView } from './event-schemas.ts';

export const MAX_EVENTS_LISTED = 200;

/** GET /events: the organization's notification events, newest first, each with its linked template. */
export class ListEvents {
  readonly #deps: { storage: Storage };
  constructor(deps: { storage: Storage }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }): Promise<NotificationEventView[]> {
    const { storage } = this.#deps;
    const events = await storage.notificationEvents.list(scope.organizationId, MAX_EVENTS_LISTED);
    const templateIds = [...new Set(events.flatMap((e) => (e.templateId ? [e.templateId] : [])))];
    const templates = new Map<string, Template | null>(
      await Promise.all(templateIds.map(async (id) => [id, await storage.templates.findById(scope.organizationId, id)] as const)));
    return events.map((e) => eventWithTemplate(e, e.templateId ? templates.get(e.templateId) ?? null : null));
  }
}
