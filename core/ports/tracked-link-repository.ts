/**
 * A short link made by a send (docs/links.md): `code` redirects to `url`. Only links recorded here
 * resolve, so the redirect is never an open redirect.
 */
export interface TrackedLink {
  code: string;
  organizationId: string;
  messageId: string;
  templateId: string | null;
  url: string;
  createdAt: Date;
  /** After this the code answers 404 (the organization's message retention); null: never. */
  expiresAt: Date | null;
}

/** Clicks on one link gathered since the last flush (buffered by the redirect service). */
export interface ClickTally {
  code: string;
  /** Every counted click (previewers, bots and HEAD requests are never counted). */
  clicks: number;
  /** Clicks from a client that had not clicked that link in the last UNIQUE_CLICK_WINDOW_MS. */
  uniqueClicks: number;
  /** When the first of these clicks happened. */
  firstAt: Date;
}

/** A link whose first counted click a flush recorded (one `message.clicked` event each). */
export interface FirstClick {
  code: string;
  organizationId: string;
  messageId: string;
  templateId: string | null;
  url: string;
  clickedAt: Date;
}

/** What click rates are grouped by. */
export type ClickRateGroup = 'template' | 'campaign' | 'locale';

/** The click totals of one group (a template, a campaign, a locale). */
export interface ClickRate {
  key: string;
  /** Messages that carried at least one tracked link. */
  messages: number;
  /** Of those, messages with at least one counted click. */
  clickedMessages: number;
  clicks: number;
  uniqueClicks: number;
}

/**
 * Stored short links. `findByCode` is not tenant-scoped on purpose: the code (about 71 random bits) is
 * the capability, as an opt-out token is. Everything else takes the organization first.
 */
export interface TrackedLinkRepository {
  /** Records links in one statement (inside the send's transaction). */
  insertMany(links: readonly TrackedLink[]): Promise<void>;
  /** The link of a code, expired or not (the caller checks `expiresAt`); null when no send made it. */
  findByCode(code: string): Promise<TrackedLink | null>;
  /** The links of several codes in one statement (unknown codes are absent); at most 1,000 codes. */
  findManyByCodes(codes: readonly string[]): Promise<TrackedLink[]>;
  /**
   * Adds tallies to their links' counters in one statement; tallies of unknown codes are dropped. Returns
   * the links that had no counted click before (their first click is `firstAt` of the tally).
   */
  addClicks(tallies: readonly ClickTally[]): Promise<FirstClick[]>;
  /** Deletes up to `limit` links that expired before `now` (retention; the maintenance job); returns how many. */
  purgeExpired(now: Date, limit: number): Promise<number>;
  /**
   * Click totals of the organization's messages created in [from, to), per template, per campaign or per the
   * template locale the message was rendered in (messages without one are left out); at most 500 groups.
   */
  clickRates(organizationId: string, by: ClickRateGroup, from: Date, to: Date): Promise<ClickRate[]>;
  /** Click totals per link of one message (at most MAX_TRACKED_LINKS_PER_MESSAGE), with the first counted click's time (null: none yet). */
  listForMessage(organizationId: string, messageId: string): Promise<Array<TrackedLink & { clicks: number; uniqueClicks: number; firstClickedAt: Date | null }>>;
}
