import type { NotificationEvent } from '../../core/domain/notification-event.ts';
import { AppError } from '../../core/errors.ts';
import type { NotificationEventPatch, NotificationEventRepository } from '../../core/ports/notification-event-repository.ts';
import { copy, type MemoryState } from './memory-state.ts';

export class InMemoryNotificationEventRepository implements NotificationEventRepository {
  readonly #state: MemoryState;
  constructor(state: MemoryState) { this.#state = state; }

  async insert(event: NotificationEvent): Promise<void> {
    this.#checkSlug(event.organizationId, event.slug, event.id);
    this.#state.notificationEvents.set(event.id, copy(event));
  }

  async findById(organizationId: string, id: string): Promise<NotificationEvent | null> {
    const hit = this.#state.notificationEvents.get(id);
    return hit && hit.organizationId === organizationId ? copy(hit) : null;
  }

  async findBySlug(organizationId: string, slug: string): Promise<NotificationEvent | null> {
    for (const event of this.#state.notificationEvents.values()) {
      if (event.organizationId === organizationId && event.slug === slug) return copy(event);
    }
    return null;
  }

  async list(organizationId: string, limit: number): Promise<NotificationEvent[]> {
    return [...this.#state.notificationEvents.values()]
      .filter((e) => e.organizationId === organizationId)
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
      .slice(0, Math.min(limit, 500)).map(copy);
  }

  async update(organizationId: string, id: string, patch: NotificationEventPatch): Promise<NotificationEvent | null> {
    const current = this.#state.notificationEvents.get(id);
    if (!current || current.organizationId !== organizationId) return null;
    if (patch.slug !== undefined) this.#checkSlug(organizationId, patch.slug, id);
    const updated = { ...current, ...copy(patch) };
    this.#state.notificationEvents.set(id, updated);
    return copy(updated);
  }

  #checkSlug(organizationId: string, slug: string, id: string): void {
    for (const other of this.#state.notificationEvents.values()) {
      if (other.organizationId === organizationId && other.slug === slug && other.id !== id) throw new AppError('CONFLICT', 'notification event already exists');
    }
  }
}
