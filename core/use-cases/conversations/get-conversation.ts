import * as v from 'valibot';
import { AppError } from '../../errors.ts';
import { contactView } from '../../domain/contact.ts';
import { conversationView, threadItemView } from '../../domain/conversation.ts';
import type { Clock } from '../../ports/clock.ts';
import type { Storage } from '../../ports/storage.ts';
import { parseInput } from '../../validation.ts';
import { withoutBlankValues } from '../compliance/page-query.ts';

export const THREAD_PAGE = { default: 50, max: 100 } as const;

export const GetConversationInput = v.object({
  limit: v.optional(v.pipe(v.string('must be a whole number'), v.regex(/^\d{1,4}$/, 'must be a whole number'), v.transform(Number),
    v.minValue(1, 'must be at least 1'), v.maxValue(THREAD_PAGE.max, `must be at most ${THREAD_PAGE.max}`),
    v.description(`Messages per page, 1 to ${THREAD_PAGE.max} (default ${THREAD_PAGE.default})`)), String(THREAD_PAGE.default)),
  before: v.optional(v.pipe(v.string('must be a string'), v.isoTimestamp('must be an ISO 8601 timestamp'), v.transform((s) => new Date(s)),
    v.description('Only messages older than this time (the nextBefore of the previous page)'))),
});

/**
 * GET /conversations/{id}: the conversation, its contact and its thread (inbound messages and the
 * organization's outbound messages to that address on that channel), newest first, at most 100 per page;
 * `nextBefore` fetches older ones. Errors: NOT_FOUND (also for another organization's), VALIDATION_ERROR.
 */
export class GetConversation {
  readonly #deps: { storage: Storage; clock: Clock };
  constructor(deps: { storage: Storage; clock: Clock }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }, id: string, query: unknown = {}) {
    const input = parseInput(GetConversationInput, withoutBlankValues(query));
    const { storage, clock } = this.#deps;
    const conversation = await storage.conversations.findById(scope.organizationId, id);
    if (!conversation) throw new AppError('NOT_FOUND', 'Conversation not found');
    const contact = await storage.contacts.findById(scope.organizationId, conversation.contactId);
    const items = await storage.conversations.thread(scope.organizationId, conversation, input.before ?? null, input.limit);
    const last = items.at(-1);
    return {
      ...conversationView(conversation, clock.now()), contact: contact ? contactView(contact) : null,
      messages: items.map(threadItemView), nextBefore: items.length === input.limit && last ? last.at.toISOString() : null,
    };
  }
}
