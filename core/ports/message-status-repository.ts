import type { DeliveryStatus } from '../domain/channel.ts';
import type { Message } from '../domain/message.ts';
import type { MessagePatch } from './message-repository.ts';

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
   * The hot path of a delivery, in one step: records the accepted `attempt`, applies `patch` to the
   * message if it is still PENDING, and records the status event of the result (`event`; status and
   * detail taken from the moved message). Returns the moved message, or null when it was no longer
   * PENDING (the attempt is recorded either way; no event then).
   */
  recordAcceptedAttempt(attempt: MessageAttempt, patch: MessagePatch, event: { id: string; source: string; createdAt: Date }): Promise<Message | null>;
  /** Oldest first, at most 100. */
  listAttempts(messageId: string): Promise<MessageAttempt[]>;
}
