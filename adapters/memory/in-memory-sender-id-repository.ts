import { AppError } from '../../core/errors.ts';
import { sameSenderName, type SenderId, type SenderIdStatus } from '../../core/domain/sender-id.ts';
import { senderIdKey, type SenderIdRepository } from '../../core/ports/sender-id-repository.ts';
import { copy, type MemoryState } from './memory-state.ts';

export class InMemorySenderIdRepository implements SenderIdRepository {
  readonly #state: MemoryState;
  constructor(state: MemoryState) { this.#state = state; }

  async insert(senderId: SenderId): Promise<void> {
    if (await this.findByName(senderId.organizationId, senderId.name)) throw new AppError('CONFLICT', 'sender ID already exists');
    this.#state.senderIds.set(senderId.id, copy(senderId));
  }

  async insertWithinLimit(senderId: SenderId, limit: number): Promise<boolean> {
    // Count and insert without an await between them: atomic in one process.
    if ([...this.#state.senderIds.values()].filter((s) => s.organizationId === senderId.organizationId).length >= limit) return false;
    if ([...this.#state.senderIds.values()].some((x) => x.organizationId === senderId.organizationId && sameSenderName(x.name, senderId.name))) throw new AppError('CONFLICT', 'sender ID already exists');
    this.#state.senderIds.set(senderId.id, copy(senderId));
    return true;
  }

  async findById(organizationId: string, id: string): Promise<SenderId | null> {
    const s = this.#state.senderIds.get(id);
    return s && s.organizationId === organizationId ? copy(s) : null;
  }

  async findByName(organizationId: string, name: string): Promise<SenderId | null> {
    const s = [...this.#state.senderIds.values()].find((x) => x.organizationId === organizationId && sameSenderName(x.name, name));
    return s ? copy(s) : null;
  }

  async findByNames(pairs: ReadonlyArray<{ organizationId: string; name: string }>): Promise<Map<string, SenderId>> {
    const wanted = new Set(pairs.map((p) => senderIdKey(p.organizationId, p.name)));
    return new Map([...this.#state.senderIds.values()].filter((s) => wanted.has(senderIdKey(s.organizationId, s.name)))
      .map((s) => [senderIdKey(s.organizationId, s.name), copy(s)]));
  }

  async list(organizationId: string, limit: number): Promise<SenderId[]> {
    return [...this.#state.senderIds.values()].filter((s) => s.organizationId === organizationId)
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1)).slice(0, limit).map(copy);
  }

  async countByOrganization(organizationId: string): Promise<number> {
    return [...this.#state.senderIds.values()].filter((s) => s.organizationId === organizationId).length;
  }

  async resubmit(organizationId: string, id: string, changes: Pick<SenderId, 'purpose' | 'sampleMessage' | 'networks' | 'approvalId'>, now: Date): Promise<SenderId | null> {
    const s = this.#state.senderIds.get(id);
    if (!s || s.organizationId !== organizationId) return null;
    Object.assign(s, copy(changes), { status: 'PENDING', reviewComment: null, updatedAt: now });
    return copy(s);
  }

  async setStatus(organizationId: string, id: string, status: SenderIdStatus, comment: string | null, now: Date): Promise<SenderId | null> {
    const s = this.#state.senderIds.get(id);
    if (!s || s.organizationId !== organizationId) return null;
    Object.assign(s, { status, reviewComment: comment, updatedAt: now });
    return copy(s);
  }

  async delete(organizationId: string, id: string): Promise<boolean> {
    const s = this.#state.senderIds.get(id);
    if (!s || s.organizationId !== organizationId) return false;
    this.#state.senderIds.delete(id);
    return true;
  }
}
