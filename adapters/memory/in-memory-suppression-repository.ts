import type { Channel } from '../../core/domain/channel.ts';
import type { Suppression, SuppressionRepository } from '../../core/ports/suppression-repository.ts';
import { AppError } from '../../core/errors.ts';
import { copy, type MemoryState } from './memory-state.ts';

export class InMemorySuppressionRepository implements SuppressionRepository {
  readonly #state: MemoryState;
  constructor(state: MemoryState) { this.#state = state; }

  async insert(entry: Suppression): Promise<void> {
    const duplicate = [...this.#state.suppressions.values()].some((s) => s.organizationId === entry.organizationId
      && s.phone === entry.phone && s.email === entry.email && s.channel === entry.channel);
    if (duplicate) throw new AppError('CONFLICT', 'suppression entry already exists');
    this.#state.suppressions.set(entry.id, copy(entry));
  }

  async findMatch(organizationId: string, channel: Channel, recipient: string): Promise<Suppression | null> {
    const wanted = recipient.toLowerCase();
    const hit = [...this.#state.suppressions.values()].find((s) => s.organizationId === organizationId
      && (s.channel === null || s.channel === channel) && (s.phone === recipient || s.email === wanted));
    return hit ? copy(hit) : null;
  }

  async findMatches(candidates: ReadonlyArray<{ organizationId: string; channel: Channel; recipient: string }>): Promise<Array<Suppression | null>> {
    return Promise.all(candidates.map((c) => this.findMatch(c.organizationId, c.channel, c.recipient)));
  }

  async list(organizationId: string, offset: number, limit: number): Promise<{ items: Suppression[]; total: number }> {
    const all = [...this.#state.suppressions.values()].filter((s) => s.organizationId === organizationId)
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
    return { items: all.slice(offset, offset + limit).map(copy), total: all.length };
  }

  async remove(organizationId: string, id: string): Promise<boolean> {
    const s = this.#state.suppressions.get(id);
    if (!s || s.organizationId !== organizationId) return false;
    return this.#state.suppressions.delete(id);
  }
}
