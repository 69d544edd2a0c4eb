import { announcedChange, applyMark, inboxItemView, type InboxCounts, type InboxFilter, type InboxItem, type InboxMark, type InboxSettings } from '../../core/domain/inbox.ts';
import type { InboxPage, InboxRepository } from '../../core/ports/inbox-repository.ts';
import type { InMemoryInboxFeed } from './in-memory-inbox-feed.ts';
import { copy, type MemoryState } from './memory-state.ts';

/** Feeds in memory, published to an in-process InMemoryInboxFeed (at once, not at commit). */
export class InMemoryInboxRepository implements InboxRepository {
  readonly #state: MemoryState;
  readonly #feed: InMemoryInboxFeed;
  constructor(state: MemoryState, feed: InMemoryInboxFeed) { this.#state = state; this.#feed = feed; }

  async insert(item: InboxItem): Promise<{ item: InboxItem; created: boolean }> {
    const existing = item.messageId ? [...this.#state.inboxItems.values()].find((i) => i.messageId === item.messageId) : undefined;
    if (existing) return { item: copy(existing), created: false };
    this.#state.inboxItems.set(item.id, copy(item));
    this.#feed.publish(announcedChange({ kind: 'item', organizationId: item.organizationId, subscriberId: item.subscriberId, itemId: item.id, item: inboxItemView(item) }));
    return { item: copy(item), created: true };
  }

  async insertMany(items: readonly InboxItem[]): Promise<number> {
    let created = 0;
    for (const item of items) if ((await this.insert(item)).created) created += 1;
    return created;
  }

  async list(organizationId: string, subscriberId: string, query: { filter: InboxFilter; limit: number; before?: string | undefined }): Promise<InboxPage> {
    const matching = this.#of(organizationId, subscriberId)
      .filter((i) => (query.filter === 'archived' ? i.archivedAt !== null : i.archivedAt === null && (query.filter === 'all' || i.readAt === null)))
      .filter((i) => query.before === undefined || i.id < query.before)
      .sort((a, b) => (a.id < b.id ? 1 : -1));
    const items = matching.slice(0, query.limit).map(copy);
    return { items, nextCursor: matching.length > query.limit ? items[items.length - 1]!.id : null };
  }

  async listAfter(organizationId: string, subscriberId: string, afterId: string, limit: number): Promise<InboxItem[]> {
    return this.#of(organizationId, subscriberId).filter((i) => i.id > afterId && i.archivedAt === null)
      .sort((a, b) => (a.id < b.id ? -1 : 1)).slice(0, limit).map(copy);
  }

  async counts(organizationId: string, subscriberId: string): Promise<InboxCounts> {
    const live = this.#of(organizationId, subscriberId).filter((i) => i.archivedAt === null);
    return { total: live.length, unread: live.filter((i) => i.readAt === null).length, unseen: live.filter((i) => i.seenAt === null).length };
  }

  async findById(organizationId: string, subscriberId: string, id: string): Promise<InboxItem | null> {
    const item = this.#state.inboxItems.get(id);
    return item && item.organizationId === organizationId && item.subscriberId === subscriberId ? copy(item) : null;
  }

  async findByMessage(organizationId: string, messageId: string): Promise<InboxItem | null> {
    const item = [...this.#state.inboxItems.values()].find((i) => i.organizationId === organizationId && i.messageId === messageId);
    return item ? copy(item) : null;
  }

  async mark(organizationId: string, subscriberId: string, ids: readonly string[] | 'all', mark: InboxMark, now: Date): Promise<number> {
    const wanted = ids === 'all' ? null : new Set(ids);
    let changed = 0;
    for (const item of this.#of(organizationId, subscriberId)) {
      if (wanted && !wanted.has(item.id)) continue;
      const marked = applyMark(item, mark, now);
      if (marked.seenAt?.getTime() === item.seenAt?.getTime() && marked.readAt?.getTime() === item.readAt?.getTime()
        && marked.archivedAt?.getTime() === item.archivedAt?.getTime()) continue;
      this.#state.inboxItems.set(item.id, marked);
      changed += 1;
    }
    if (changed > 0) this.#feed.publish(announcedChange({ kind: 'marked', organizationId, subscriberId, itemIds: ids === 'all' ? 'all' : [...ids], mark }));
    return changed;
  }

  async getSettings(organizationId: string): Promise<InboxSettings | null> {
    const settings = this.#state.inboxSettings.get(organizationId);
    return settings ? copy(settings) : null;
  }

  async findSettingsByAppId(appId: string): Promise<InboxSettings | null> {
    const settings = [...this.#state.inboxSettings.values()].find((s) => s.appId === appId);
    return settings ? copy(settings) : null;
  }

  async saveSettings(settings: InboxSettings): Promise<void> {
    const existing = this.#state.inboxSettings.get(settings.organizationId);
    this.#state.inboxSettings.set(settings.organizationId, copy({ ...settings, appId: existing?.appId ?? settings.appId, createdAt: existing?.createdAt ?? settings.createdAt }));
  }

  #of(organizationId: string, subscriberId: string): InboxItem[] {
    return [...this.#state.inboxItems.values()].filter((i) => i.organizationId === organizationId && i.subscriberId === subscriberId);
  }
}
