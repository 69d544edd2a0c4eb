import type { Channel } from '../domain/channel.ts';

/**
 * Opt-out links (docs/consent.md): one per organization, channel and recipient. The token is a keyed
 * HMAC of the three (so it cannot be guessed or altered into another recipient's), short enough for an
 * SMS; the hosted page finds the link by its token.
 */
export interface OptOutLink {
  token: string;
  organizationId: string;
  channel: Channel;
  recipient: string;
  createdAt: Date;
}

/** Makes the tokens and addresses of opt-out links. */
export interface OptOutLinkSigner {
  /** The token of (organization, channel, recipient): the same every time, unguessable without the key. */
  token(organizationId: string, channel: Channel, recipient: string): string;
  /** Whether `token` has the shape of a token (checked before any lookup). */
  wellFormed(token: string): boolean;
  /** The hosted page's address for a token. */
  url(token: string): string;
}

/** Stored links, tenant-scoped by their token. */
export interface OptOutLinkRepository {
  /** Records links; one already recorded (same token) is left as it is. */
  insertMany(links: readonly OptOutLink[]): Promise<void>;
  findByToken(token: string): Promise<OptOutLink | null>;
}
