import type { InboxCounts, InboxFilter, InboxItem, InboxMark, InboxSettings } from '../domain/inbox.ts';

/** One page of a feed, newest first; `nextCursor` reads the next (older) page, null at the end. */
export interface InboxPage { items: InboxItem[]; nextCursor: string | null }

/**
 * Subscribers' in-app feeds and the organizations' inbox credentials (docs/inbox.md). Every feed
 * method takes the organization and the subscriber first: one subscriber never reads or marks
 * another's items, one organization never another's. Every write that changes a feed is published
 * (InboxChange) to every process when it commits, so open streams see it (InboxFeed).
 */
export interface InboxRepository {
  /**
   * Stores an item and publishes it. Idempotent on `messageId`: storing a message's item again
   * changes nothing and answers the item stored first.
   */
  insert(item: InboxItem): Promise<{ item: InboxItem; created: boolean }>;
  /** Several items at once (broadcasts, benchmarks); each published. Idempotent on messageId like insert. */
  insertMany(items: readonly InboxItem[]): Promise<number>;
  /** Newest first, at most `limit` (bounded by the caller); `before` is an item id (exclusive cursor). */
  list(organizationId: string, subscriberId: string, query: { filter: InboxFilter; limit: number; before?: string | undefined }): Promise<InboxPage>;
  /** Items newer than `afterId`, oldest first, not archived, at most `limit` (stream resume with Last-Event-ID). */
  listAfter(organizationId: string, subscriberId: string, afterId: string, limit: number): Promise<InboxItem[]>;
  counts(organizationId: string, subscriberId: string): Promise<InboxCounts>;
  findById(organizationId: string, subscriberId: string, id: string): Promise<InboxItem | null>;
  /** The item of an IN_APP message (unread fallback), whichever subscriber it went to. */
  findByMessage(organizationId: string, messageId: string): Promise<InboxItem | null>;
  /** Marks the given items (ids of other subscribers are ignored) or all of the subscriber's; answers how many changed. Published when any did. */
  mark(organizationId: string, subscriberId: string, ids: readonly string[] | 'all', mark: InboxMark, now: Date): Promise<number>;

  getSettings(organizationId: string): Promise<InboxSettings | null>;
  findSettingsByAppId(appId: string): Promise<InboxSettings | null>;
  /** Creates or replaces the organization's settings (the appId never changes once created). */
  saveSettings(settings: InboxSettings): Promise<void>;
}
