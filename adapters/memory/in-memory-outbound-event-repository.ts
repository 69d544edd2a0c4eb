import type { OutboundEvent } from '../../core/domain/outbound-event.ts';
import type { OutboundEventRepository } from '../../core/ports/outbound-event-repository.ts';
import { copy, type MemoryState } from './memory-state.ts';

export class InMemoryOutboundEventRepository implements OutboundEventRepository {
  readonly #state: MemoryState;
  constructor(state: MemoryState) { this.#state = state; }

  async record(event: OutboundEvent): Promise<void> { this.#state.outboundEvents.push(copy(event)); }

  async find(organizationId: string, id: string): Promise<OutboundEvent | null> {
    const hit = this.#state.outboundEvents.find((e) => e.id === id && e.organizationId === organizationId);
    return hit ? copy(hit) : null;
  }

  async findMany(keys: ReadonlyArray<{ organizationId: string; id: string }>): Promise<OutboundEvent[]> {
    const wanted = new Set(keys.map((k) => `${k.organizationId}\n${k.id}`));
    return this.#state.outboundEvents.filter((e) => wanted.has(`${e.organizationId}\n${e.id}`)).map(copy);
  }

  async listRecent(organizationId: string, limit: number): Promise<OutboundEvent[]> {
    return this.#state.outboundEvents.filter((e) => e.organizationId === organizationId)
      .sort((a, b) => b.occurredAt.getTime() - a.occurredAt.getTime() || b.id.localeCompare(a.id))
      .slice(0, Math.min(limit, 100)).map(copy);
  }
}
