import type { Channel, DeliveryStatus } from '../domain/channel.ts';
import type { Message } from '../domain/message.ts';

export interface DeliveryLogFilter {
  status?: DeliveryStatus | undefined;
  channel?: Channel | undefined;
}

/** Fields a delivery attempt may change. */
export type MessagePatch = Partial<Pick<Message, 'status' | 'errorCode' | 'errorMessage' | 'cost' | 'provider' | 'providerMessageId'
  | 'attempts' | 'sentAt' | 'deliveredAt' | 'failedAt' | 'leaseUntil' | 'sealedContent' | 'network'>> & { updatedAt: Date };

export interface MessagePage {
  items: Message[];
  total: number;
}

/**
 * Messages (delivery logs). Tenant-scoped reads take the organization id first; `findForDelivery`
 * and `transition` are by id because worker jobs carry only ids.
 */
export interface MessageRepository {
  insertMany(messages: readonly Message[]): Promise<void>;
  findById(organizationId: string, id: string): Promise<Message | null>;
  findManyByIds(organizationId: string, ids: readonly string[]): Promise<Message[]>;
  findForDelivery(id: string): Promise<Message | null>;
  /**
   * Applies `patch` only if the message is in one of `from` (and, when `leaseFreeAt` is given, its
   * lease has expired by then). Returns the updated message, or null when the condition did not hold:
   * two workers can never both claim one message.
   */
  transition(id: string, from: readonly DeliveryStatus[], patch: MessagePatch, leaseFreeAt?: Date): Promise<Message | null>;
  /**
   * Claims messages for one delivery attempt each, in one step: every QUEUED or PENDING message of
   * `ids` whose lease is free at `now` becomes PENDING with attempts + 1, leased until `leaseUntil`.
   * Returns the claimed ones (in no particular order); the others (unknown, SENT or final, or leased
   * by another attempt) are left alone: two workers never both claim one message.
   */
  claimManyForDelivery(ids: readonly string[], now: Date, leaseUntil: Date): Promise<Message[]>;
  /**
   * Frees the claims of attempts that died with their process (PENDING with a lease already past:
   * an attempt that ends, well or badly, always clears its lease) and answers their ids, at most
   * `limit`, oldest lease first. Each claim is freed once, whichever process sweeps.
   */
  releaseAbandonedClaims(now: Date, limit: number): Promise<string[]>;
  /**
   * Scheduled sends (docs/scheduling.md), inside a transaction: SCHEDULED messages of every organization
   * whose `scheduledAt` is at or before `now`, at most `limit`, earliest first, each row locked until the
   * transaction ends. Rows another transaction holds are skipped (two workers releasing at once take
   * different messages), so a message is released at most once.
   */
  lockDueScheduled(now: Date, limit: number): Promise<Message[]>;
  /** SCHEDULED -> QUEUED for the given ids (the ones still SCHEDULED); returns the ids it moved. */
  releaseScheduled(ids: readonly string[], now: Date): Promise<string[]>;
  /**
   * Newest first (createdAt, then id), `limit` at most 100 (0 only counts). `total` counts the matching
   * messages but stops at `countUpTo` when given: an exact count over a million rows is too slow for
   * a page request (docs/adr/0006-delivery-log-pagination.md).
   */
  list(organizationId: string, filter: DeliveryLogFilter, offset: number, limit: number, countUpTo?: number): Promise<MessagePage>;
  /** Newest first, at most `limit` rows, streamed in chunks. */
  stream(organizationId: string, filter: DeliveryLogFilter, limit: number): AsyncIterable<Message>;
  /** Messages created since `since` for the organization, REJECTED excluded. */
  countSince(organizationId: string, since: Date): Promise<number>;
  /**
   * The same count per organization and recipient, for the given pairs (several organizations of a
   * group-committed batch in one lookup). Keys are `recipientCountKey(organizationId, recipient)`; absent = 0.
   */
  countSinceByRecipient(since: Date, pairs: ReadonlyArray<{ organizationId: string; recipient: string }>): Promise<Map<string, number>>;
}

/** The key of `countSinceByRecipient`'s answer. */
export function recipientCountKey(organizationId: string, recipient: string): string {
  return `${organizationId}\u0000${recipient}`;
}
