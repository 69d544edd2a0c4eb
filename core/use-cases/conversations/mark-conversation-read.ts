import { AppError } from '../../errors.ts';
import { conversationView } from '../../domain/conversation.ts';
import type { Clock } from '../../ports/clock.ts';
import type { Storage } from '../../ports/storage.ts';

/** POST /conversations/{id}/read: unread count back to 0. Errors: NOT_FOUND. */
export class MarkConversationRead {
  readonly #deps: { storage: Storage; clock: Clock };
  constructor(deps: { storage: Storage; clock: Clock }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }, id: string) {
    const now = this.#deps.clock.now();
    if (!(await this.#deps.storage.conversations.markRead(scope.organizationId, id, now))) throw new AppError('NOT_FOUND', 'Conversation not found');
    return conversationView((await this.#deps.storage.conversations.findById(scope.organizationId, id))!, now);
  }
}
