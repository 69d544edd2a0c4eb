import type { Message } from '../../core/domain/message.ts';
import type { AcceptedDelivery, MessageAttempt, MessageStatusEvent, MessageStatusRepository } from '../../core/ports/message-status-repository.ts';
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

  async recordAcceptedAttempts(accepted: readonly AcceptedDelivery[]): Promise<Message[]> {
    const moved: Message[] = [];
    for (const { attempt, status, at, event } of accepted) {
      this.#state.attempts.push(copy(attempt));
      const m = this.#state.messages.get(attempt.messageId);
      if (!m || m.status !== 'PENDING') continue;
      Object.assign(m, {
        status, provider: attempt.provider, providerMessageId: attempt.providerMessageId, errorCode: null, errorMessage: null,
        sentAt: new Date(at), deliveredAt: status === 'DELIVERED' ? new Date(at) : null, leaseUntil: null, updatedAt: new Date(at),
      });
      delete m.sealedContent; // the clear text is needed only until a provider has it
      this.#state.statusEvents.push({ id: event.id, messageId: m.id, organizationId: m.organizationId, status, source: event.source, detail: null, createdAt: new Date(at) });
      moved.push(copy(m));
    }
    return moved;
  }

  async listAttempts(messageId: string): Promise<MessageAttempt[]> {
    return this.#state.attempts.filter((a) => a.messageId === messageId).slice(0, 100).map(copy);
  }
}
