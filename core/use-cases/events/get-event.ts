import { AppError } from '../../errors.ts';
import type { Storage } from '../../ports/storage.ts';
import { eventWithTemplate, type NotificationEventView } from './event-schemas.ts';

/** GET /events/{id}: one notification event with its linked template (another organization's id -> NOT_FOUND). */
export class GetEvent {
  readonly #deps: { storage: Storage };
  constructor(deps: { storage: Storage }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }, id: string): Promise<NotificationEventView> {
    const { storage } = this.#deps;
    const event = id.length <= 64 ? await storage.notificationEvents.findById(scope.organizationId, id) : null;
    if (!event) throw new AppError('NOT_FOUND', 'Notification event not found');
    return eventWithTemplate(event, event.templateId ? await storage.templates.findById(scope.organizationId, event.templateId) : null);
  }
}
