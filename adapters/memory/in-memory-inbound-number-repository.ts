import { AppError } from '../../core/errors.ts';
import type { InboundChannel, InboundNumber } from '../../core/domain/conversation.ts';
import type { InboundNumberRepository } from '../../core/ports/inbound-number-repository.ts';
import { copy, type MemoryState } from './memory-state.ts';

export class InMemoryInboundNumberRepository implements InboundNumberRepository {
  readonly #state: MemoryState;
  constructor(state: MemoryState) { this.#state = state; }

  async insert(n: InboundNumber): Promise<void> {
    if (await this.findByAddress(n.channel, n.address)) throw new AppError('CONFLICT', 'inbound number already exists');
    this.#state.inboundNumbers.set(n.id, copy(n));
  }

  async findByAddress(channel: InboundChannel, address: string): Promise<InboundNumber | null> {
    const n = [...this.#state.inboundNumbers.values()].find((x) => x.channel === channel && x.address === address);
    return n ? copy(n) : null;
  }

  async list(): Promise<InboundNumber[]> {
    return [...this.#state.inboundNumbers.values()].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1)).slice(0, 500).map(copy);
  }

  async delete(id: string): Promise<boolean> {
    return this.#state.inboundNumbers.delete(id);
  }
}
