import { AppError } from '../../core/errors.ts';
import type { Conversation, InboundChannel, InboundMessage, ThreadItem } from '../../core/domain/conversation.ts';
import type { TenantKeyword } from '../../core/domain/inbound-keywords.ts';
import type { ConversationListQuery, ConversationRepository } from '../../core/ports/conversation-repository.ts';
import { copy, type MemoryState } from './memory-state.ts';
import { deliveredVia } from '../../core/domain/message.ts';

const newestFirst = (a: { at: Date; id: string }, b: { at: Date; id: string }) => b.at.getTime() - a.at.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

export class InMemoryConversationRepository implements ConversationRepository {
  readonly #state: MemoryState;
  constructor(state: MemoryState) { this.#state = state; }

  async insertInbound(m: InboundMessage): Promise<boolean> {
    if (this.#state.inboundMessages.some((x) => x.vendor === m.vendor && x.providerMessageId === m.providerMessageId)) return false;
    this.#state.inboundMessages.push(copy(m));
    return true;
  }

  async findByAddress(organizationId: string, channel: InboundChannel, address: string): Promise<Conversation | null> {
    const c = [...this.#state.conversations.values()].find((x) => x.organizationId === organizationId && x.channel === channel && x.address === address);
    return c ? copy(c) : null;
  }

  async insert(c: Conversation): Promise<void> {
    if (await this.findByAddress(c.organizationId, c.channel, c.address)) throw new AppError('CONFLICT', 'conversation already exists');
    this.#state.conversations.set(c.id, copy(c));
  }

  async touchInbound(organizationId: string, id: string, at: { receivedAt: Date; to: string; preview: string; now: Date }): Promise<void> {
    const c = this.#own(organizationId, id);
    if (!c) return;
    c.unreadCount += 1;
    c.updatedAt = at.now;
    if (at.receivedAt >= c.lastInboundAt) { c.lastInboundTo = at.to; c.lastInboundAt = at.receivedAt; }
    if (at.receivedAt >= c.lastMessageAt) { c.lastMessagePreview = at.preview; c.lastMessageAt = at.receivedAt; }
  }

  async touchOutbound(organizationId: string, id: string, at: { sentAt: Date; preview: string }): Promise<void> {
    const c = this.#own(organizationId, id);
    if (!c) return;
    c.updatedAt = at.sentAt;
    if (at.sentAt >= c.lastMessageAt) { c.lastMessagePreview = at.preview; c.lastMessageAt = at.sentAt; }
  }

  async findById(organizationId: string, id: string): Promise<Conversation | null> {
    const c = this.#own(organizationId, id);
    return c ? copy(c) : null;
  }

  async list(organizationId: string, q: ConversationListQuery): Promise<Conversation[]> {
    return [...this.#state.conversations.values()]
      .filter((c) => c.organizationId === organizationId && (!q.channel || c.channel === q.channel) && (!q.unreadOnly || c.unreadCount > 0))
      .filter((c) => !q.before || newestFirst({ at: c.lastMessageAt, id: c.id }, q.before) > 0)
      .sort((a, b) => newestFirst({ at: a.lastMessageAt, id: a.id }, { at: b.lastMessageAt, id: b.id }))
      .slice(0, Math.min(Math.max(q.limit, 1), 100)).map(copy);
  }

  async markRead(organizationId: string, id: string, now: Date): Promise<boolean> {
    const c = this.#own(organizationId, id);
    if (!c) return false;
    c.unreadCount = 0;
    c.updatedAt = now;
    return true;
  }

  async thread(organizationId: string, c: Pick<Conversation, 'id' | 'channel' | 'address'>, before: Date | null, limit: number): Promise<ThreadItem[]> {
    const inbound: ThreadItem[] = this.#state.inboundMessages.filter((m) => m.organizationId === organizationId && m.conversationId === c.id)
      .map((m) => ({ direction: 'INBOUND', id: m.id, body: m.body, status: 'RECEIVED', at: m.receivedAt }));
    const outbound: ThreadItem[] = [...this.#state.messages.values()].filter((m) => m.organizationId === organizationId && m.channel === c.channel && m.recipient === c.address)
      .map((m) => ({ direction: 'OUTBOUND', id: m.id, body: m.body, status: m.status, localOnly: deliveredVia(m) === 'OUTBOX', at: m.createdAt }));
    return [...inbound, ...outbound].filter((t) => !before || t.at < before).sort(newestFirst).slice(0, Math.min(Math.max(limit, 1), 100)).map(copy);
  }

  async lastInboundAt(channel: InboundChannel, candidates: ReadonlyArray<{ organizationId: string; address: string }>): Promise<Array<Date | null>> {
    const all = [...this.#state.conversations.values()];
    return candidates.map((k) => all.find((c) => c.channel === channel && c.organizationId === k.organizationId && c.address === k.address)?.lastInboundAt ?? null);
  }

  async listKeywords(organizationId: string): Promise<TenantKeyword[]> {
    return this.#state.inboundKeywords.filter((k) => k.organizationId === organizationId).sort((a, b) => a.keyword.localeCompare(b.keyword)).map(copy);
  }

  async insertKeyword(k: TenantKeyword): Promise<void> {
    if (this.#state.inboundKeywords.some((x) => x.organizationId === k.organizationId && x.keyword === k.keyword)) throw new AppError('CONFLICT', 'keyword already exists');
    this.#state.inboundKeywords.push(copy(k));
  }

  async insertKeywordWithinLimit(k: TenantKeyword, limit: number): Promise<boolean> {
    // Count and insert without an await between them: atomic in one process.
    if (this.#state.inboundKeywords.filter((x) => x.organizationId === k.organizationId).length >= limit) return false;
    if (this.#state.inboundKeywords.some((x) => x.organizationId === k.organizationId && x.keyword === k.keyword)) throw new AppError('CONFLICT', 'keyword already exists');
    this.#state.inboundKeywords.push(copy(k));
    return true;
  }

  async deleteKeyword(organizationId: string, id: string): Promise<boolean> {
    const i = this.#state.inboundKeywords.findIndex((k) => k.organizationId === organizationId && k.id === id);
    if (i < 0) return false;
    this.#state.inboundKeywords.splice(i, 1);
    return true;
  }

  #own(organizationId: string, id: string): Conversation | null {
    const c = this.#state.conversations.get(id);
    return c && c.organizationId === organizationId ? c : null;
  }
}
