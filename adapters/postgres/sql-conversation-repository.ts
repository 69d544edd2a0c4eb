import type { EntityManager } from '@mikro-orm/sql';
import type { Conversation, InboundChannel, InboundMessage, ThreadItem } from '../../core/domain/conversation.ts';
import type { KeywordAction, TenantKeyword } from '../../core/domain/inbound-keywords.ts';
import type { ConversationListQuery, ConversationRepository } from '../../core/ports/conversation-repository.ts';
import { translateUniqueViolation } from './db-errors.ts';
import { sqlRows, toDate } from './sql-rows.ts';
import { countOf, underLimitLock } from './organization-lock.ts';

interface Row {
  id: string; organization_id: string; contact_id: string; channel: InboundChannel; address: string; last_inbound_to: string;
  last_inbound_at: Date | string; last_message_at: Date | string; last_message_preview: string; unread_count: number;
  created_at: Date | string; updated_at: Date | string;
}

const toConversation = (r: Row): Conversation => ({
  id: r.id, organizationId: r.organization_id, contactId: r.contact_id, channel: r.channel, address: r.address, lastInboundTo: r.last_inbound_to,
  lastInboundAt: toDate(r.last_inbound_at)!, lastMessageAt: toDate(r.last_message_at)!, lastMessagePreview: r.last_message_preview,
  unreadCount: Number(r.unread_count), createdAt: toDate(r.created_at)!, updatedAt: toDate(r.updated_at)!,
});

/** `conversations`, `inbound_messages` and `inbound_keywords` (migration 0035); the thread also reads `messages`. */
export class SqlConversationRepository implements ConversationRepository {
  readonly #em: EntityManager;
  constructor(em: EntityManager) { this.#em = em; }

  async insertInbound(m: InboundMessage): Promise<boolean> {
    const rows = await sqlRows(this.#em, `insert into inbound_messages (id, organization_id, conversation_id, contact_id, channel, vendor, provider,
      provider_message_id, from_address, to_address, body, keyword, received_at, created_at)
      values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) on conflict (vendor, provider_message_id) do nothing returning id`,
    [m.id, m.organizationId, m.conversationId, m.contactId, m.channel, m.vendor, m.provider, m.providerMessageId, m.from, m.to, m.body, m.keyword,
      m.receivedAt, m.createdAt], { prepare: true });
    return rows.length === 1;
  }

  async findByAddress(organizationId: string, channel: InboundChannel, address: string): Promise<Conversation | null> {
    const rows = await sqlRows<Row>(this.#em, 'select * from conversations where organization_id = $1 and channel = $2 and address = $3',
      [organizationId, channel, address], { prepare: true });
    return rows[0] ? toConversation(rows[0]) : null;
  }

  async insert(c: Conversation): Promise<void> {
    await translateUniqueViolation('conversation', () => sqlRows(this.#em, `insert into conversations (id, organization_id, contact_id, channel, address,
      last_inbound_to, last_inbound_at, last_message_at, last_message_preview, unread_count, created_at, updated_at)
      values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
    [c.id, c.organizationId, c.contactId, c.channel, c.address, c.lastInboundTo, c.lastInboundAt, c.lastMessageAt, c.lastMessagePreview, c.unreadCount,
      c.createdAt, c.updatedAt], { prepare: true }));
  }

  async touchInbound(organizationId: string, id: string, at: { receivedAt: Date; to: string; preview: string; now: Date }): Promise<void> {
    // A late retry of an older message never moves the times backwards.
    await sqlRows(this.#em, `update conversations set unread_count = unread_count + 1, updated_at = $6,
      last_inbound_to = case when $3 >= last_inbound_at then $4 else last_inbound_to end,
      last_inbound_at = greatest(last_inbound_at, $3),
      last_message_preview = case when $3 >= last_message_at then $5 else last_message_preview end,
      last_message_at = greatest(last_message_at, $3)
      where organization_id = $1 and id = $2`, [organizationId, id, at.receivedAt, at.to, at.preview, at.now], { prepare: true });
  }

  async touchOutbound(organizationId: string, id: string, at: { sentAt: Date; preview: string }): Promise<void> {
    await sqlRows(this.#em, `update conversations set last_message_preview = case when $3 >= last_message_at then $4 else last_message_preview end,
      last_message_at = greatest(last_message_at, $3), updated_at = $3 where organization_id = $1 and id = $2`,
    [organizationId, id, at.sentAt, at.preview], { prepare: true });
  }

  async findById(organizationId: string, id: string): Promise<Conversation | null> {
    const rows = await sqlRows<Row>(this.#em, 'select * from conversations where organization_id = $1 and id = $2', [organizationId, id], { prepare: true });
    return rows[0] ? toConversation(rows[0]) : null;
  }

  async list(organizationId: string, q: ConversationListQuery): Promise<Conversation[]> {
    const params: unknown[] = [organizationId];
    let where = 'organization_id = $1';
    if (q.channel) { params.push(q.channel); where += ` and channel = $${params.length}`; }
    if (q.unreadOnly) where += ' and unread_count > 0';
    if (q.before) {
      params.push(q.before.at, q.before.id);
      where += ` and (last_message_at, id) < ($${params.length - 1}, $${params.length})`;
    }
    params.push(Math.min(Math.max(q.limit, 1), 100));
    const rows = await sqlRows<Row>(this.#em, `select * from conversations where ${where} order by last_message_at desc, id desc limit $${params.length}`, params);
    return rows.map(toConversation);
  }

  async markRead(organizationId: string, id: string, now: Date): Promise<boolean> {
    const rows = await sqlRows(this.#em, 'update conversations set unread_count = 0, updated_at = $3 where organization_id = $1 and id = $2 returning id',
      [organizationId, id, now], { prepare: true });
    return rows.length === 1;
  }

  async thread(organizationId: string, c: Pick<Conversation, 'id' | 'channel' | 'address'>, before: Date | null, limit: number): Promise<ThreadItem[]> {
    const bounded = Math.min(Math.max(limit, 1), 100);
    const rows = await sqlRows<{ direction: 'INBOUND' | 'OUTBOUND'; id: string; body: string; status: string; local_only: boolean; at: Date | string }>(this.#em, `
      (select 'INBOUND' as direction, id, body, 'RECEIVED' as status, false as local_only, received_at as at from inbound_messages
        where conversation_id = $2 and organization_id = $1 and ($5::timestamptz is null or received_at < $5) order by received_at desc, id desc limit $6)
      union all
      (select 'OUTBOUND' as direction, id, body, status, coalesce(starts_with(provider_message_id, 'outbox_'), false) as local_only, created_at as at from messages
        where organization_id = $1 and recipient = $4 and channel = $3 and ($5::timestamptz is null or created_at < $5) order by created_at desc limit $6)
      order by at desc, id desc limit $6`, [organizationId, c.id, c.channel, c.address, before, bounded]);
    return rows.map((r) => ({ direction: r.direction, id: r.id, body: r.body, status: r.status, localOnly: r.local_only === true, at: toDate(r.at)! }));
  }

  async lastInboundAt(channel: InboundChannel, candidates: ReadonlyArray<{ organizationId: string; address: string }>): Promise<Array<Date | null>> {
    if (candidates.length === 0) return [];
    const rows = await sqlRows<{ organization_id: string; address: string; last_inbound_at: Date | string }>(this.#em, `select c.organization_id, c.address, c.last_inbound_at
      from conversations c join (select distinct * from unnest($1::text[], $2::text[]) as k (organization_id, address)) k
        on c.organization_id = k.organization_id and c.address = k.address where c.channel = $3`,
    [candidates.map((c) => c.organizationId), candidates.map((c) => c.address), channel]);
    const found = new Map(rows.map((r) => [`${r.organization_id}\u0000${r.address}`, toDate(r.last_inbound_at)]));
    return candidates.map((c) => found.get(`${c.organizationId}\u0000${c.address}`) ?? null);
  }

  async listKeywords(organizationId: string): Promise<TenantKeyword[]> {
    const rows = await sqlRows<{ id: string; organization_id: string; keyword: string; action: KeywordAction; reply_text: string | null; created_at: Date | string }>(
      this.#em, 'select * from inbound_keywords where organization_id = $1 order by keyword limit 100', [organizationId], { prepare: true });
    return rows.map((r) => ({ id: r.id, organizationId: r.organization_id, keyword: r.keyword, action: r.action, replyText: r.reply_text, createdAt: toDate(r.created_at)! }));
  }

  async insertKeyword(k: TenantKeyword): Promise<void> {
    await translateUniqueViolation('keyword', () => sqlRows(this.#em, `insert into inbound_keywords (id, organization_id, keyword, action, reply_text, created_at)
      values ($1, $2, $3, $4, $5, $6)`, [k.id, k.organizationId, k.keyword, k.action, k.replyText, k.createdAt]));
  }

  async insertKeywordWithinLimit(k: TenantKeyword, limit: number): Promise<boolean> {
    return underLimitLock(this.#em, 'inbound-keywords', k.organizationId, async (em) => {
      if (await countOf(em, 'select count(*) as n from inbound_keywords where organization_id = $1', [k.organizationId]) >= limit) return false;
      await new SqlConversationRepository(em).insertKeyword(k);
      return true;
    });
  }

  async deleteKeyword(organizationId: string, id: string): Promise<boolean> {
    return (await sqlRows(this.#em, 'delete from inbound_keywords where organization_id = $1 and id = $2 returning id', [organizationId, id])).length === 1;
  }
}
