import * as v from 'valibot';
import { AppError } from '../../errors.ts';
import { parseInput } from '../../validation.ts';
import { FEED_LIMIT_MAX, INBOX_MARKS, inboxItemView, type InboxMark } from '../../domain/inbox.ts';
import type { Clock } from '../../ports/clock.ts';
import type { Storage } from '../../ports/storage.ts';
import { waitKeys } from '../../domain/workflow.ts';
import { wakeWaitingRuns } from '../workflows/wake-waiting-runs.ts';
import type { SubscriberPrincipal } from './authenticate-subscriber.ts';

export const MarkInboxItemsInput = v.object({
  mark: v.picklist(INBOX_MARKS, `must be one of ${INBOX_MARKS.join(', ')}`),
  ids: v.pipe(v.array(v.pipe(v.string('must be strings'), v.minLength(1), v.maxLength(64)), 'must be an array of item ids'),
    v.minLength(1, 'must list at least one id'), v.maxLength(FEED_LIMIT_MAX, `must list at most ${FEED_LIMIT_MAX} ids`)),
});
export const MarkAllInboxItemsInput = v.object({ mark: v.picklist(['seen', 'read', 'archived'] as const, 'must be one of seen, read, archived') });

/**
 * POST /inbox/v1/items/mark, POST /inbox/v1/items/{id}/{mark}, POST /inbox/v1/mark-all: marks the
 * subscriber's items seen, read, unread, archived or unarchived (ids of other subscribers are
 * ignored: never marked, never revealed). Answers how many changed and the new counts. Marking read (or
 * archived, which reads too) wakes, in the same transaction, the workflow runs waiting for a read by this
 * subscriber (docs/workflows.md, `wait` for `read`).
 */
export class MarkInboxItems {
  readonly #deps: { storage: Storage; clock: Clock };
  constructor(deps: { storage: Storage; clock: Clock }) { this.#deps = deps; }

  async execute(subscriber: SubscriberPrincipal, raw: unknown) {
    const input = parseInput(MarkInboxItemsInput, raw);
    return this.#mark(subscriber, [...new Set(input.ids)], input.mark);
  }

  async all(subscriber: SubscriberPrincipal, raw: unknown) {
    const input = parseInput(MarkAllInboxItemsInput, raw);
    return this.#mark(subscriber, 'all', input.mark);
  }

  /** One item; an id that is not the subscriber's is NOT_FOUND. */
  async one(subscriber: SubscriberPrincipal, id: string, mark: InboxMark) {
    const { inbox } = this.#deps.storage;
    if (!await inbox.findById(subscriber.organizationId, subscriber.subscriberId, id)) throw new AppError('NOT_FOUND', 'Inbox item not found', { id });
    await this.#marked(subscriber, [id], mark);
    const item = await inbox.findById(subscriber.organizationId, subscriber.subscriberId, id);
    return { item: item ? inboxItemView(item) : null, counts: await inbox.counts(subscriber.organizationId, subscriber.subscriberId) };
  }

  async #mark(subscriber: SubscriberPrincipal, ids: string[] | 'all', mark: InboxMark) {
    const changed = await this.#marked(subscriber, ids, mark);
    return { changed, counts: await this.#deps.storage.inbox.counts(subscriber.organizationId, subscriber.subscriberId) };
  }

  async #marked(subscriber: SubscriberPrincipal, ids: string[] | 'all', mark: InboxMark): Promise<number> {
    const now = this.#deps.clock.now();
    if (mark !== 'read' && mark !== 'archived') return this.#deps.storage.inbox.mark(subscriber.organizationId, subscriber.subscriberId, ids, mark, now);
    return this.#deps.storage.transaction(async (tx) => {
      const changed = await tx.inbox.mark(subscriber.organizationId, subscriber.subscriberId, ids, mark, now);
      if (changed > 0) await wakeWaitingRuns(tx, subscriber.organizationId, [waitKeys.read(subscriber.subscriberId)]);
      return changed;
    });
  }
}
