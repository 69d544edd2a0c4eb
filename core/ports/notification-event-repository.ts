import type { NotificationEvent } from '../domain/notification-event.ts';

export type NotificationEventPatch = Partial<Pick<NotificationEvent, 'name' | 'slug' | 'description' | 'channelPriority' | 'templateId'
  | 'retryRules' | 'fallbackRules' | 'isActive'>> & { updatedAt: Date };

/**
 * An organization's notification events. Tenant-scoped: every method takes the organization first.
 * A slug belongs to at most one event per organization: `insert` or `update` with a slug already
 * used throws AppError CONFLICT.
 */
export interface NotificationEventRepository {
  insert(event: NotificationEvent): Promise<void>;
  findById(organizationId: string, id: string): Promise<NotificationEvent | null>;
  findBySlug(organizationId: string, slug: string): Promise<NotificationEvent | null>;
  /** Newest first (createdAt, then id), at most `limit` (capped at 500). */
  list(organizationId: string, limit: number): Promise<NotificationEvent[]>;
  /** Returns the updated event, or null when there is none with this id in the organization. */
  update(organizationId: string, id: string, patch: NotificationEventPatch): Promise<NotificationEvent | null>;
}
