import * as v from 'valibot';
import { parseInput } from '../../validation.ts';
import { FEED_LIMIT_DEFAULT, FEED_LIMIT_MAX, INBOX_FILTERS, inboxItemView } from '../../domain/inbox.ts';
import type { Storage } from '../../ports/storage.ts';
import type { SubscriberPrincipal } from './authenticate-subscriber.ts';

export const InboxFeedQuery = v.object({
  filter: v.optional(v.picklist(INBOX_FILTERS, `must be one of ${INBOX_FILTERS.join(', ')}`), 'all'),
  limit: v.optional(v.pipe(v.string(), v.regex(/^\d{1,3}$/, 'must be a whole number'), v.transform(Number),
    v.minValue(1, 'must be at least 1'), v.maxValue(FEED_LIMIT_MAX, `must be at most ${FEED_LIMIT_MAX}`)), String(FEED_LIMIT_DEFAULT)),
  cursor: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(64, 'is too long'))),
});

/**
 * GET /inbox/v1/feed: the subscriber's items, newest first, one page of at most 100 (cursor = the
 * last item's id; `nextCursor` null at the end), with the unread and unseen counts. GET
 * /inbox/v1/counts: the counts alone.
 */
export class GetInboxFeed {
  readonly #deps: { storage: Storage };
  constructor(deps: { storage: Storage }) { this.#deps = deps; }

  async execute(subscriber: SubscriberPrincipal, rawQuery: unknown) {
    const query = parseInput(InboxFeedQuery, rawQuery);
    const { inbox } = this.#deps.storage;
    const [page, counts] = await Promise.all([
      inbox.list(subscriber.organizationId, subscriber.subscriberId, { filter: query.filter, limit: query.limit, before: query.cursor }),
      inbox.counts(subscriber.organizationId, subscriber.subscriberId),
    ]);
    return { items: page.items.map(inboxItemView), nextCursor: page.nextCursor, counts };
  }

  counts(subscriber: SubscriberPrincipal) {
    return this.#deps.storage.inbox.counts(subscriber.organizationId, subscriber.subscriberId);
  }
}
