import { constants } from 'node:fs';
import { access, mkdir, open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Channel } from '../../core/domain/channel.ts';
import { OUTBOX_REFERENCE_PREFIX } from '../../core/domain/message.ts';
import type { OutboundMessage, ProviderResult } from '../../core/ports/channel-provider.ts';
import type { ProviderHealth, VendorAdapter } from '../../core/ports/vendor-adapter.ts';
import { UuidV7IdGenerator } from '../security/uuid-v7-id-generator.ts';

const REOPEN_MS = 5_000;

/**
 * The development provider for live keys on the embedded default: every message is appended as a
 * JSON line to `<dataDir>/outbox/<channel>.jsonl` and reported SENT, with a vendor reference starting
 * `outbox_` by which every delivery log shows `deliveredVia: "OUTBOX"`, `localOnly: true`. Lets a
 * self-hoster see exactly what would have gone out without a vendor account.
 *
 * The reference is made when the line is written (a UUIDv7, also in the line as `reference`), as a vendor
 * makes its own when it takes a message, not derived from the message's id: the index of provider references
 * then takes each send at its right edge in whatever order messages are delivered. Derived from the message id,
 * a delivery order other than creation order (the fair queue serving tenants in turn: docs/adr/0036) wrote it at
 * as many places as tenants served, 1.6 more buffers a message in bench:fair-share.
 */
export class OutboxProvider implements VendorAdapter {
  readonly name: string;
  readonly vendor = 'outbox';
  readonly channel: Channel;
  readonly #directory: string;
  readonly #references = new UuidV7IdGenerator();
  /** The channel's file, opened for appending and kept open a while (one write per message, not open/write/close). */
  #file: { handle: Promise<FileHandle>; openedAt: number } | null = null;
  constructor(channel: Channel, directory: string, name = 'outbox') { this.channel = channel; this.#directory = directory; this.name = name; }

  /** The outbox is healthy when its directory is writable. */
  async checkHealth(): Promise<ProviderHealth> {
    const started = performance.now();
    try {
      await mkdir(this.#directory, { recursive: true });
      await access(this.#directory, constants.W_OK);
      return { ok: true, latencyMs: Math.round(performance.now() - started), detail: `outbox directory writable`, balance: null };
    } catch (error) {
      return { ok: false, latencyMs: Math.round(performance.now() - started), detail: error instanceof Error ? error.message : String(error), balance: null };
    }
  }

  async send(message: OutboundMessage): Promise<ProviderResult> {
    try {
      const reference = `${OUTBOX_REFERENCE_PREFIX}${this.#references.next()}`;
      const line = JSON.stringify({ at: new Date().toISOString(), reference, ...message });
      await (await this.#handle()).write(`${line}\n`); // O_APPEND: each write lands whole at the end
      return { accepted: true, providerMessageId: reference, delivered: false };
    } catch (error) {
      this.#file = null;
      return { accepted: false, retryable: true, errorCode: 'OUTBOX_WRITE_FAILED', errorMessage: error instanceof Error ? error.message : String(error) };
    }
  }

  /**
   * The open file, reopened every REOPEN_MS so a file the operator moved or deleted is created again.
   * A handle being replaced is closed once the writes already given it have had time to finish.
   */
  #handle(): Promise<FileHandle> {
    const now = Date.now();
    if (this.#file && now - this.#file.openedAt < REOPEN_MS) return this.#file.handle;
    const previous = this.#file?.handle;
    const handle = mkdir(this.#directory, { recursive: true })
      .then(() => open(path.join(this.#directory, `${this.channel.toLowerCase()}.jsonl`), 'a', 0o600));
    this.#file = { handle, openedAt: now };
    handle.catch(() => { if (this.#file?.handle === handle) this.#file = null; });
    if (previous) setTimeout(() => { previous.then((h) => h.close()).catch(() => undefined); }, REOPEN_MS).unref();
    return handle;
  }
}
