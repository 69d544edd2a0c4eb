import type { EmailSender, OutgoingEmail } from '../../core/ports/email-sender.ts';

/** Keeps sent emails in a list for tests to read. */
export class InMemoryEmailSender implements EmailSender {
  readonly sent: OutgoingEmail[] = [];
  async send(email: OutgoingEmail): Promise<void> { this.sent.push(structuredClone(email)); }
  lastTo(address: string): OutgoingEmail | undefined { return [...this.sent].reverse().find((e) => e.to === address); }
}
