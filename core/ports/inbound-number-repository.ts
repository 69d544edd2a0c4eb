import type { InboundChannel, InboundNumber } from '../domain/conversation.ts';

/**
 * Receiving numbers of the platform's vendor accounts assigned to organizations (platform data,
 * managed by platform administrators). An address is unique per channel (a clash throws CONFLICT).
 */
export interface InboundNumberRepository {
  insert(number: InboundNumber): Promise<void>;
  /** The assignment of a receiving address (normalized) on a channel, or null. */
  findByAddress(channel: InboundChannel, address: string): Promise<InboundNumber | null>;
  /** Every assignment, newest first, at most 500. */
  list(): Promise<InboundNumber[]>;
  delete(id: string): Promise<boolean>;
}
