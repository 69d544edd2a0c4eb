import { isExemptCategory, type Channel, type TemplateCategory } from '../domain/channel.ts';

export interface Suppression {
  id: string;
  organizationId: string;
  /** E.164 phone, or null. */
  phone: string | null;
  /** Lowercased email, or null. */
  email: string | null;
  /** Null means every channel. */
  channel: Channel | null;
  /**
   * Null: every message (the suppression list). A category: the recipient opted out of that category
   * (the preference centre, docs/consent.md); it never blocks an exempt category (TRANSACTIONAL, OTP).
   */
  category: TemplateCategory | null;
  reason: string | null;
  createdAt: Date;
}

/** Recipients an organization must not message. Tenant-scoped. */
export interface SuppressionRepository {
  insert(entry: Suppression): Promise<void>;
  /**
   * The entry blocking a message of `category` (default TRANSACTIONAL: only the suppression list blocks
   * it) to `recipient` (an E.164 phone or an email) on `channel`, if any; a whole-list entry first.
   */
  findMatch(organizationId: string, channel: Channel, recipient: string, category?: TemplateCategory): Promise<Suppression | null>;
  /**
   * `findMatch` for every candidate, in order, in one lookup (a group-committed batch screens the
   * recipients of several requests, possibly of several organizations, at once).
   */
  findMatches(candidates: readonly SuppressionCandidate[]): Promise<Array<Suppression | null>>;
  /** The category entries (opt-outs of one category) of an organization's recipients, at most 1,000. */
  findPreferenceEntries(organizationId: string, recipients: readonly string[]): Promise<Suppression[]>;
  /** Removes the opt-out of `category` on `channel` (an opt-in again); true when there was one. */
  removePreference(organizationId: string, channel: Channel, recipient: string, category: TemplateCategory): Promise<boolean>;
  /** Opt-outs of categories since `since`, by category and channel, and per day (UTC); whole-list entries counted apart. */
  preferenceStats(organizationId: string, since: Date): Promise<PreferenceStats>;
  list(organizationId: string, offset: number, limit: number): Promise<{ items: Suppression[]; total: number }>;
  remove(organizationId: string, id: string): Promise<boolean>;
}

export interface SuppressionCandidate { organizationId: string; channel: Channel; recipient: string; category?: TemplateCategory | undefined }

export interface PreferenceStats {
  /** Category opt-outs in force, by category and channel. */
  byCategory: Array<{ category: TemplateCategory; channel: Channel | null; count: number }>;
  /** Category opt-outs recorded per UTC day since `since`. */
  daily: Array<{ day: string; count: number }>;
  /** Whole-list suppression entries in force. */
  suppressed: number;
}

/** Whether `entry` blocks a message of `category` on `channel` (the recipient already matched). */
export function blocks(entry: Pick<Suppression, 'channel' | 'category'>, channel: Channel, category: TemplateCategory): boolean {
  if (entry.channel !== null && entry.channel !== channel) return false;
  return entry.category === null || (entry.category === category && !isExemptCategory(category));
}
