/**
 * The in-app inbox (IN_APP channel, docs/inbox.md): one feed per subscriber of an organization. A
 * subscriber is an id the tenant chooses (its own user id); an IN_APP message's recipient is that id.
 */
export interface InboxItem {
  id: string;
  organizationId: string;
  subscriberId: string;
  /** The IN_APP message this item delivers (unique: delivering a message twice stores one item). */
  messageId: string | null;
  subject: string | null;
  body: string;
  createdAt: Date;
  seenAt: Date | null;
  readAt: Date | null;
  archivedAt: Date | null;
}

/** An organization's inbox credentials: a public application id for browsers, and the secret its backend signs subscriber ids with. */
export interface InboxSettings {
  organizationId: string;
  /** Public: embedded in pages (`app-id`). */
  appId: string;
  /** The HMAC key, encrypted at rest (CredentialCipher); shown once when rotated. */
  secretCiphertext: string;
  /** Last four characters, to tell secrets apart without revealing them. */
  secretHint: string;
  createdAt: Date;
  rotatedAt: Date;
}

/** Subscriber ids: the tenant's own identifiers (user ids, UUIDs, emails). */
export const SUBSCRIBER_ID_PATTERN = /^[A-Za-z0-9._:@+-]{1,128}$/;
export const SUBSCRIBER_ID_MAX = 128;

export function isSubscriberId(value: string): boolean {
  return SUBSCRIBER_ID_PATTERN.test(value);
}

/** Feed filters: everything not archived, only unread (not archived), only archived. */
export const INBOX_FILTERS = ['all', 'unread', 'archived'] as const;
export type InboxFilter = (typeof INBOX_FILTERS)[number];

/** What marking does to items. */
export const INBOX_MARKS = ['seen', 'read', 'unread', 'archived', 'unarchived'] as const;
export type InboxMark = (typeof INBOX_MARKS)[number];

export const FEED_LIMIT_DEFAULT = 20;
export const FEED_LIMIT_MAX = 100;
/** Longest "unread after N minutes" fallback delay (a week). */
export const UNREAD_FALLBACK_MAX_MINUTES = 10_080;

export interface InboxCounts { unread: number; unseen: number; total: number }

/**
 * A change of one subscriber's feed, as published to every process (LISTEN/NOTIFY) and pushed to
 * that subscriber's open streams: a new item (carried whole when small), or items marked (counts change).
 */
export type InboxChange =
  | { kind: 'item'; organizationId: string; subscriberId: string; itemId: string; item: InboxItemView | null }
  | { kind: 'marked'; organizationId: string; subscriberId: string; itemIds: string[] | 'all'; mark: InboxMark };

/** Largest change announced whole (PostgreSQL refuses NOTIFY payloads of 8000 bytes or more). */
export const INBOX_CHANGE_MAX_BYTES = 7_900;

/**
 * The change as announced to other processes: whole when its JSON fits INBOX_CHANGE_MAX_BYTES,
 * otherwise a new item without its content (listeners read it back by id) or a mark of 'all' ids.
 */
export function announcedChange(change: InboxChange): InboxChange {
  if (new TextEncoder().encode(JSON.stringify(change)).length <= INBOX_CHANGE_MAX_BYTES) return change;
  return change.kind === 'item' ? { ...change, item: null } : { ...change, itemIds: 'all' };
}

export function inboxItemView(item: InboxItem) {
  return {
    id: item.id, subject: item.subject, body: item.body, messageId: item.messageId, createdAt: item.createdAt.toISOString(),
    seen: item.seenAt !== null, read: item.readAt !== null, archived: item.archivedAt !== null,
    seenAt: item.seenAt?.toISOString() ?? null, readAt: item.readAt?.toISOString() ?? null, archivedAt: item.archivedAt?.toISOString() ?? null,
  };
}
export type InboxItemView = ReturnType<typeof inboxItemView>;

/** The timestamps a mark sets (null clears); fields not listed stay as they are. */
export function markChanges(mark: InboxMark, now: Date): Partial<Pick<InboxItem, 'seenAt' | 'readAt' | 'archivedAt'>> {
  switch (mark) {
    case 'seen': return { seenAt: now };
    case 'read': return { seenAt: now, readAt: now };
    case 'unread': return { readAt: null };
    case 'archived': return { seenAt: now, readAt: now, archivedAt: now };
    case 'unarchived': return { archivedAt: null };
  }
}

/** Applies a mark to one item; a timestamp already set keeps its first value. */
export function applyMark(item: InboxItem, mark: InboxMark, now: Date): InboxItem {
  const changes = markChanges(mark, now);
  const keep = (key: 'seenAt' | 'readAt' | 'archivedAt') => (key in changes ? (changes[key] === null ? null : item[key] ?? now) : item[key]);
  return { ...item, seenAt: keep('seenAt'), readAt: keep('readAt'), archivedAt: keep('archivedAt') };
}
