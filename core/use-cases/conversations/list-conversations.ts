import * as v from 'valibot';
import { conversationView, INBOUND_CHANNELS } from '../../domain/conversation.ts';
import type { Clock } from '../../ports/clock.ts';
import type { Storage } from '../../ports/storage.ts';
import { parseInput } from '../../validation.ts';
import { decodeKeysetCursor, encodeKeysetCursor } from '../../domain/keyset-cursor.ts';
import { withoutBlankValues } from '../compliance/page-query.ts';

export const CONVERSATION_PAGE = { default: 25, max: 100 } as const;

export const ListConversationsInput = v.object({
  limit: v.optional(v.pipe(v.string('must be a whole number'), v.regex(/^\d{1,4}$/, 'must be a whole number'), v.transform(Number),
    v.minValue(1, 'must be at least 1'), v.maxValue(CONVERSATION_PAGE.max, `must be at most ${CONVERSATION_PAGE.max}`),
    v.description(`Conversations per page, 1 to ${CONVERSATION_PAGE.max} (default ${CONVERSATION_PAGE.default})`)), String(CONVERSATION_PAGE.default)),
  cursor: v.optional(v.pipe(v.string('must be a string'), v.maxLength(500, 'is not a cursor from this API'), v.transform(decodeKeysetCursor),
    v.check((c) => c !== null, 'is not a cursor from this API'), v.description('The nextCursor of the previous page'))),
  channel: v.optional(v.pipe(v.picklist(INBOUND_CHANNELS, `must be one of ${INBOUND_CHANNELS.join(', ')}`), v.description('Only this channel'))),
  unread: v.optional(v.pipe(v.picklist(['true', 'false'], 'must be true or false'), v.description('true: only conversations with unread messages'))),
});

/**
 * GET /conversations: the organization's conversations, most recent message first, a page of at most
 * 100; `nextCursor` fetches the next (older) page and is null on the last. Errors: VALIDATION_ERROR.
 */
export class ListConversations {
  readonly #deps: { storage: Storage; clock: Clock };
  constructor(deps: { storage: Storage; clock: Clock }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }, query: unknown = {}) {
    const input = parseInput(ListConversationsInput, withoutBlankValues(query));
    const items = await this.#deps.storage.conversations.list(scope.organizationId, {
      limit: input.limit, channel: input.channel, unreadOnly: input.unread === 'true', before: input.cursor ?? undefined,
    });
    const last = items.at(-1);
    const now = this.#deps.clock.now();
    return { items: items.map((c) => conversationView(c, now)), limit: input.limit, nextCursor: items.length === input.limit && last ? encodeKeysetCursor(last.lastMessageAt, last.id) : null };
  }
}
