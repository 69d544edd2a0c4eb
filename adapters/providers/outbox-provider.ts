import { constants } from 'node:fs';
import { access, appendFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Channel } from '../../core/domain/channel.ts';
import type { OutboundMessage, ProviderResult } from '../../core/ports/channel-provider.ts';
import type { ProviderHealth, VendorAdapter } from '../../core/ports/vendor-adapter.ts';

/**
 * The development provider for live keys on the embedded default: every message is appended as a
 * JSON line to `<dataDir>/outbox/<channel>.jsonl` and reported SENT. Lets a self-hoster see exactly
 * what would have gone out without a vendor account.
 */
export class OutboxProvider implements VendorAdapter {
  readonly name: string;
  readonly vendor = 'outbox';
  readonly channel: Channel;
  readonly #directory: string;
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
      await mkdir(this.#directory, { recursive: true });
      const line = JSON.stringify({ at: new Date().toISOString(), ...message });
      await appendFile(path.join(this.#directory, `${this.channel.toLowerCase()}.jsonl`), `${line}\n`, { mode: 0o600 });
      return { accepted: true, providerMessageId: `outbox_${message.internalMessageId}`, delivered: false };
    } catch (error) {
      return { accepted: false, retryable: true, errorCode: 'OUTBOX_WRITE_FAILED', errorMessage: error instanceof Error ? error.message : String(error) };
    }
  }
}
