export interface OutgoingEmail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/**
 * Sends service emails (password resets, invitations, owner notices). Adapters: a local outbox in
 * the data directory (embedded default), SMTP. Throws AppError with `retryable` on transport failure.
 */
export interface EmailSender {
  send(email: OutgoingEmail): Promise<void>;
}
