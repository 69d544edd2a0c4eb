import type { Conversation, InboundChannel, InboundMessage, ThreadItem } from '../domain/conversation.ts';
import type { TenantKeyword } from '../domain/inbound-keywords.ts';

export interface ConversationListQuery {
  channel?: InboundChannel | undefined;
  unreadOnly?: boolean | undefined;
  /** Keyset cursor: conversations whose last message is older than (at, id). */
  before?: { at: Date; id: string } | undefined;
  /** At most 100. */
  limit: number;
}

/** Key of `lastInboundAt` answers. */
export function windowKey(organizationId: string, address: string): string {
  return `${organizationId}\u0000${address}`;
}

/**
 * Conversations, the inbound messages in them and organizations' keywords. Tenant-scoped: every
 * read takes the organization and never returns another organization's rows.
 */
export interface ConversationRepository {
  /**
   * Stores an inbound message unless one with the same (vendor, providerMessageId) is stored already
   * (a vendor's retry): true when stored, false for a duplicate (nothing written).
   */
  insertInbound(message: InboundMessage): Promise<boolean>;
  /** The conversation of (organization, channel, address), or null. */
  findByAddress(organizationId: string, channel: InboundChannel, address: string): Promise<Conversation | null>;
  /** Inserts a new conversation (unique per organization, channel and address: a clash throws CONFLICT). */
  insert(conversation: Conversation): Promise<void>;
  /** Records an inbound message in the conversation: last inbound/message times, preview, unread + 1. */
  touchInbound(organizationId: string, id: string, at: { receivedAt: Date; to: string; preview: string; now: Date }): Promise<void>;
  /** Records an outbound reply: last message time and preview (unread unchanged). */
  touchOutbound(organizationId: string, id: string, at: { sentAt: Date; preview: string }): Promise<void>;
  findById(organizationId: string, id: string): Promise<Conversation | null>;
  /** Newest last message first (lastMessageAt, id), at most `limit`. */
  list(organizationId: string, query: ConversationListQuery): Promise<Conversation[]>;
  /** Sets unread to 0; false when the conversation does not exist. */
  markRead(organizationId: string, id: string, now: Date): Promise<boolean>;
  /**
   * The thread, newest first, at most `limit` (<= 100): the conversation's inbound messages and the
   * organization's outbound messages on its channel to its address, older than `before` when given.
   */
  thread(organizationId: string, conversation: Pick<Conversation, 'id' | 'channel' | 'address'>, before: Date | null, limit: number): Promise<ThreadItem[]>;
  /**
   * For each candidate (in order): when its contact last wrote on `channel` (the latest inbound message
   * time of the conversation with that address), or null. One lookup for a whole batch.
   */
  lastInboundAt(channel: InboundChannel, candidates: ReadonlyArray<{ organizationId: string; address: string }>): Promise<Array<Date | null>>;
  /** The organization's keywords (at most TENANT_KEYWORDS_MAX). */
  listKeywords(organizationId: string): Promise<TenantKeyword[]>;
  /** Unique per organization and keyword: a clash throws CONFLICT. */
  insertKeyword(keyword: TenantKeyword): Promise<void>;
  /**
   * `insertKeyword`, unless the organization holds `limit` keywords already: false then, nothing written.
   * Counted one request at a time per organization (a lock held to the end of the transaction), so
   * concurrent requests in any number of processes never pass the limit.
   */
  insertKeywordWithinLimit(keyword: TenantKeyword, limit: number): Promise<boolean>;
  deleteKeyword(organizationId: string, id: string): Promise<boolean>;
}
