import type { Message } from '../../core/domain/message.ts';
import type { MessageAttempt, MessageStatusEvent, MessageStatusRepository } from '../../core/ports/message-status-repository.ts';
import { copy, type MemoryState } from './memory-state.ts';

export class InMemoryMessageStatusRepository implements MessageStatusRepository {
  readonly #state: MemoryState;
  constructor(state: MemoryState) { this.#state = state; }

  async findByProviderRef(provider: string, providerMessageId: string): Promise<Message | null> {
    const m = [...this.#state.messages.values()].find((x) => x.provider === provider && x.providerMessageId === providerMessageId);
    return m ? copy(m) : null;
  }

  async listAwaitingReport(provider: string, since: Date, limit: number): Promise<Message[]> {
    return [...this.#state.messages.values()]
      .filter((m) => m.provider === provider && m.status === 'SENT' && (m.sentAt?.getTime() ?? 0) >= since.getTime())
      .sort((a, b) => (a.sentAt?.getTime() ?? 0) - (b.sentAt?.getTime() ?? 0)).slice(0, limit).map(copy);
  }

  async recordEvent(event: MessageStatusEvent): Promise<void> { this.#state.statusEvents.push(copy(event)); }

  async listEvents(messageId: string): Promise<MessageStatusEvent[]> {
    return this.#state.statusEvents.filter((e) => e.messageId === messageId).slice(0, 100).map(copy);
  }

  async recordAttempt(attempt: MessageAttempt): Promise<void> { this.#state.attempts.push(copy(attempt)); }

  async listAttempts(messageId: string): Promise<MessageAttempt[]> {
    return this.#state.attempts.filter((a) => a.messageId === messageId).slice(0, 100).map(copy);
  }
}
