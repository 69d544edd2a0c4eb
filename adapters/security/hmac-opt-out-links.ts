import { createHmac, hash } from 'node:crypto';
import type { Channel } from '../../core/domain/channel.ts';
import type { OptOutLinkSigner } from '../../core/ports/opt-out-links.ts';

/** 16 base64url characters: 96 bits of an HMAC-SHA256. */
const TOKEN_LENGTH = 16;
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{16}$/;

/**
 * Opt-out link tokens: HMAC-SHA256 under a key derived from the service's ENCRYPTION_KEY (its own
 * purpose label), truncated to 96 bits; addresses `PUBLIC_URL/u/<token>` (docs/consent.md).
 */
export class HmacOptOutLinks implements OptOutLinkSigner {
  readonly #key: Buffer;
  readonly #base: string;
  constructor(secret: string, publicUrl: string) {
    this.#key = Buffer.from(hash('sha256', `nkra:opt-out-links:${secret}`, 'hex'), 'hex');
    this.#base = publicUrl.replace(/\/+$/, '');
  }

  token(organizationId: string, channel: Channel, recipient: string): string {
    return createHmac('sha256', this.#key).update(`${organizationId}\n${channel}\n${recipient}`).digest('base64url').slice(0, TOKEN_LENGTH);
  }

  wellFormed(token: string): boolean { return TOKEN_SHAPE.test(token); }

  url(token: string): string { return `${this.#base}/u/${token}`; }
}
