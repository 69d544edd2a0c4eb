import type { DeliveryStatus } from '../../core/domain/channel.ts';
import type { Message } from '../../core/domain/message.ts';
import { recipientCountKey, type DeliveryLogFilter, type MessagePage, type MessagePatch, type MessageRepository } from '../../core/ports/message-repository.ts';
import { copy, type MemoryState } from './memory-state.ts';

export class InMemoryMessageRepository implements MessageRepository {
  readonly #state: MemoryState;
  constructor(state: MemoryState) { this.#state = state; }

  async insertMany(messages: readonly Message[]): Promise<void> {
    for (const m of messages) this.#state.messages.set(m.id, copy(m));
  }

  async findById(organizationId: string, id: string): Promise<Message | null> {
    const m = this.#state.messages.get(id);
    return m && m.organizationId === organizationId ? copy(m) : null;
  }

  async findManyByIds(organizationId: string, ids: readonly string[]): Promise<Message[]> {
    return ids.flatMap((id) => { const m = this.#state.messages.get(id); return m && m.organizationId === organizationId ? [copy(m)] : []; });
  }

  async findForDelivery(id: string): Promise<Message | null> {
    const m = this.#state.messages.get(id);
    return m ? copy(m) : null;
  }

  async transition(id: string, from: readonly DeliveryStatus[], patch: MessagePatch, leaseFreeAt?: Date): Promise<Message | null> {
    const m = this.#state.messages.get(id);
    if (!m || !from.includes(m.status)) return null;
    if (leaseFreeAt && m.leaseUntil && m.leaseUntil.getTime() > leaseFreeAt.getTime()) return null;
    Object.assign(m, copy(patch));
    return copy(m);
  }

  async claimManyForDelivery(ids: readonly string[], now: Date, leaseUntil: Date): Promise<Message[]> {
    const claimed: Message[] = [];
    for (const id of new Set(ids)) {
      const m = this.#state.messages.get(id);
      if (!m || (m.status !== 'QUEUED' && m.status !== 'PENDING')) continue;
      if (m.leaseUntil && m.leaseUntil.getTime() > now.getTime()) continue;
      Object.assign(m, { status: 'PENDING', attempts: m.attempts + 1, leaseUntil: new Date(leaseUntil), updatedAt: new Date(now) });
      claimed.push(copy(m));
    }
    return claimed;
  }

  async list(organizationId: string, filter: DeliveryLogFilter, offset: number, limit: number, countUpTo = Infinity): Promise<MessagePage> {
    const all = this.#filtered(organizationId, filter);
    return { items: all.slice(offset, offset + limit).map(copy), total: Math.min(all.length, countUpTo) };
  }

  async *stream(organizationId: string, filter: DeliveryLogFilter, limit: number): AsyncIterable<Message> {
    for (const m of this.#filtered(organizationId, filter).slice(0, limit)) yield copy(m);
  }

  async releaseAbandonedClaims(now: Date, limit: number): Promise<string[]> {
    const abandoned = [...this.#state.messages.values()]
      .filter((m) => m.status === 'PENDING' && m.leaseUntil !== null && m.leaseUntil.getTime() < now.getTime())
      .sort((a, b) => a.leaseUntil!.getTime() - b.leaseUntil!.getTime()).slice(0, limit);
    for (const m of abandoned) { m.leaseUntil = null; m.updatedAt = now; }
    return abandoned.map((m) => m.id);
  }

  /** Transactions run one at a time in memory: the lock is the transaction itself. */
  async lockDueScheduled(now: Date, limit: number): Promise<Message[]> {
    return [...this.#state.messages.values()]
      .filter((m) => m.status === 'SCHEDULED' && m.scheduledAt !== null && m.scheduledAt.getTime() <= now.getTime())
      .sort((a, b) => a.scheduledAt!.getTime() - b.scheduledAt!.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .slice(0, limit).map(copy);
  }

  async releaseScheduled(ids: readonly string[], now: Date): Promise<string[]> {
    const moved: string[] = [];
    for (const id of new Set(ids)) {
      const m = this.#state.messages.get(id);
      if (!m || m.status !== 'SCHEDULED') continue;
      Object.assign(m, { status: 'QUEUED', updatedAt: new Date(now) });
      moved.push(id);
    }
    return moved;
  }

  async countSince(organizationId: string, since: Date): Promise<number> {
    return this.#recent(organizationId, since).length;
  }

  async countSinceByRecipient(since: Date, pairs: ReadonlyArray<{ organizationId: string; recipient: string }>): Promise<Map<string, number>> {
    const wanted = new Set(pairs.map((p) => recipientCountKey(p.organizationId, p.recipient)));
    const counts = new Map<string, number>();
    for (const m of this.#state.messages.values()) {
      const key = recipientCountKey(m.organizationId, m.recipient);
      if (wanted.has(key) && m.status !== 'REJECTED' && m.createdAt.getTime() >= since.getTime()) counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return counts;
  }

  #recent(organizationId: string, since: Date): Message[] {
    return [...this.#state.messages.values()].filter((m) => m.organizationId === organizationId && m.status !== 'REJECTED' && m.createdAt.getTime() >= since.getTime());
  }

  #filtered(organizationId: string, filter: DeliveryLogFilter): Message[] {
    return [...this.#state.messages.values()]
      .filter((m) => m.organizationId === organizationId && (!filter.status || m.status === filter.status) && (!filter.channel || m.channel === filter.channel))
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  }
}
