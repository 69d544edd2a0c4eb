import type { Segment } from '../../core/domain/segment.ts';
import { matchesRule } from '../../core/domain/segment-rules.ts';
import type { SegmentRepository } from '../../core/ports/segment-repository.ts';
import { copy, type MemoryState } from './memory-state.ts';

export class InMemorySegmentRepository implements SegmentRepository {
  readonly #state: MemoryState;
  constructor(state: MemoryState) { this.#state = state; }

  async insert(segment: Segment): Promise<void> { this.#state.segments.set(segment.id, copy(segment)); }

  async findById(organizationId: string, id: string): Promise<Segment | null> {
    const hit = this.#state.segments.get(id);
    return hit && hit.organizationId === organizationId ? copy(hit) : null;
  }

  async list(organizationId: string, limit: number): Promise<Segment[]> {
    return [...this.#state.segments.values()].filter((s) => s.organizationId === organizationId)
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1)).slice(0, limit).map(copy);
  }

  async freezeMembers(segment: Segment): Promise<number> {
    let count = 0;
    for (const contact of this.#state.contacts.values()) {
      if (contact.organizationId !== segment.organizationId || !matchesRule(contact, segment.rules)) continue;
      this.#state.segmentMembers.set(`${segment.id}/${contact.id}`, { segmentId: segment.id, contactId: contact.id });
      count += 1;
    }
    return count;
  }
}
