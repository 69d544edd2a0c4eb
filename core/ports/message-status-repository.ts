import type { DeliveryStatus } from '../domain/channel.ts';
import type { Message } from '../domain/message.ts';

/** One status change of a message, for its history and for `message.status.updated` webhooks. */
export interface MessageStatusEvent {
  id: string;
  messageId: string;
  organizationId: string;
  status: DeliveryStatus;
  /** 'api', 'worker', 'callback:<vendor>', 'poll:<provider>'. */
  source: string;
  detail: string | null;
  createdAt: Date;
}

/** One submission of a message to one provider (the delivery log's attempts). */
export interface MessageAttempt {
  id: string;
  messageId: string;
  attempt: number;
  provider: string;
  outcome: 'ACCEPTED' | 'FAILED';
  retryable: boolean;
  errorCode: string | null;
  errorMessage: string | null;
  providerMessageId: string | null;
  durationMs: number;
  createdAt: Date;
}

/** An accepted attempt and what it makes of its message (recordAcceptedAttempts). */
export interface AcceptedDelivery {
  attempt: MessageAttempt;
  status: 'SENT' | 'DELIVERED';
  at: Date;
  /** The status event's id and source ('provider:<name>'). */
  event: { id: string; source: string };
}

/** Delivery reports, status history and attempts of messages. */
export interface MessageStatusRepository {
  /** The message a vendor report refers to (by the provider instance name and the vendor's id). */
  findByProviderRef(provider: string, providerMessageId: string): Promise<Message | null>;
  /** SENT messages of `provider` sent after `since`, oldest first, at most `limit` (status polling). */
  listAwaitingReport(provider: string, since: Date, limit: number): Promise<Message[]>;
  recordEvent(event: MessageStatusEvent): Promise<void>;
  /** Oldest first, at most 100. */
  listEvents(messageId: string): Promise<MessageStatusEvent[]>;
  recordAttempt(attempt: MessageAttempt): Promise<void>;
  /**
   * The hot path of deliveries, for a whole batch in one step: records each accepted attempt, moves
   * its message to `status` if it is still PENDING (provider and provider message id from the
   * attempt, sentAt = updatedAt = `at`, deliveredAt = `at` when DELIVERED, error and lease cleared),
   * and records the status event of each moved message. Returns the moved messages (in no particular
   * order); a message no longer PENDING keeps its attempt row but is not moved and gets no event.
   */
  recordAcceptedAttempts(accepted: readonly AcceptedDelivery[]): Promise<Message[]>;
  /** Oldest first, at most 100. */
  listAttempts(messageId: string): Promise<MessageAttempt[]>;
}
