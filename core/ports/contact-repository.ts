import type { Contact } from '../domain/contact.ts';
import type { Audience } from '../domain/segment-rules.ts';

export interface ContactSearch {
  /** Case-insensitive substring of first name, last name, "first last", email or phone; empty = all. */
  search: string;
  offset: number;
  /** At most 100. */
  limit: number;
  /** Stop counting `total` here (an exact count over millions of contacts is too slow for a page). */
  countUpTo: number;
}

/**
 * An organization's contacts. Tenant-scoped: every method takes the organization first and never
 * returns another organization's contact. Within an organization a phone and an email belong to at
 * most one contact (inserting or updating into a clash throws AppError CONFLICT).
 */
export interface ContactRepository {
  insert(contact: Contact): Promise<void>;
  findById(organizationId: string, id: string): Promise<Contact | null>;
  /** Replaces the stored fields of `contact` (matched by organization and id); false when it does not exist. */
  update(contact: Contact): Promise<boolean>;
  delete(organizationId: string, id: string): Promise<boolean>;
  /** Newest first (createdAt, id). `total` is exact up to `countUpTo`, then `countUpTo`. */
  search(organizationId: string, query: ContactSearch): Promise<{ items: Contact[]; total: number }>;
  /** Contacts whose phone is among `phones` or email among `emails` (bulk import matching). */
  findByAddresses(organizationId: string, phones: readonly string[], emails: readonly string[]): Promise<Contact[]>;
  /** Bulk writes of an import batch: one statement each. A clash throws CONFLICT (callers match first). */
  insertMany(contacts: readonly Contact[]): Promise<void>;
  /**
   * Inserts all of `contacts`, or none of them and returns false when one of their phones or emails
   * is already held by a stored contact of the organization (an import batch of new people, no lookup
   * first). Any other failure throws; the surrounding transaction stays usable after a false.
   */
  insertManyUnlessTaken(contacts: readonly Contact[]): Promise<boolean>;
  updateMany(contacts: readonly Contact[]): Promise<void>;
  /**
   * Serializes bulk writers (imports) of one organization's contacts until the surrounding transaction
   * ends, so that "match, then insert or update" cannot race. Call inside `Storage.transaction`.
   * Adapters may relax the durability of that transaction's commit: callers commit their progress
   * in the same transaction and redo a lost batch.
   */
  lockForBulkWrite(organizationId: string): Promise<void>;
  /**
   * Removes a dead push token: every contact of the organization holding exactly `token` (an APNs
   * token compared without case) loses it, and records `at` and `reason`. Only that token, only that
   * organization. Returns the changed contacts as they are now (none when nobody held it).
   */
  clearPushToken(organizationId: string, token: string, at: Date, reason: string): Promise<Contact[]>;
  /**
   * The audience's contacts per locale (null: contacts without one), largest groups first (then by
   * locale), at most `limit` groups (<= 1,000). Campaign estimates price each locale's variant (docs/campaigns.md).
   */
  countByLocale(organizationId: string, audience: Audience, limit: number): Promise<Array<{ locale: string | null; count: number }>>;
  /** How many contacts the audience holds. */
  count(organizationId: string, audience: Audience): Promise<number>;
  /** Keyset page of the audience in id order: contacts with id > `afterId` (null = from the start), at most `limit` (<= 5,000). */
  page(organizationId: string, audience: Audience, afterId: string | null, limit: number): Promise<Contact[]>;
}
