import type { Channel } from '../domain/channel.ts';

export interface Suppression {
  id: string;
  organizationId: string;
  /** E.164 phone, or null. */
  phone: string | null;
  /** Lowercased email, or null. */
  email: string | null;
  /** Null means every channel. */
  channel: Channel | null;
  reason: string | null;
  createdAt: Date;
}

/** Recipients an organization must not message. Tenant-scoped. */
export interface SuppressionRepository {
  insert(entry: Suppression): Promise<void>;
  /** The entry blocking `recipient` (an E.164 phone or an email) on `channel`, if any. */
  findMatch(organizationId: string, channel: Channel, recipient: string): Promise<Suppression | null>;
  /**
   * `findMatch` for every candidate, in order, in one lookup (a group-committed batch screens the
   * recipients of several requests, possibly of several organizations, at once).
   */
  findMatches(candidates: ReadonlyArray<{ organizationId: string; channel: Channel; recipient: string }>): Promise<Array<Suppression | null>>;
  list(organizationId: string, offset: number, limit: number): Promise<{ items: Suppression[]; total: number }>;
  remove(organizationId: string, id: string): Promise<boolean>;
}
