import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { EmailSender, OutgoingEmail } from '../../core/ports/email-sender.ts';

/**
 * The embedded default's mail transport: each email becomes a JSON file in `<dataDir>/outbox`, so a
 * self-hoster can read password-reset links without an SMTP server (see README).
 */
export class OutboxEmailSender implements EmailSender {
  readonly #directory: string;
  constructor(directory: string) { this.#directory = directory; }

  async send(email: OutgoingEmail): Promise<void> {
    await mkdir(this.#directory, { recursive: true });
    const safeTo = email.to.replace(/[^A-Za-z0-9@._-]/g, '_');
    const file = path.join(this.#directory, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}-${safeTo}.json`);
    await writeFile(file, JSON.stringify({ ...email, sentAt: new Date().toISOString() }, null, 2), { mode: 0o600, flag: 'wx' });
  }
}
