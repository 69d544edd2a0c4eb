import { countsAsClick, LINK_CODE_PATTERN, UNIQUE_CLICK_WINDOW_MS } from '../../domain/tracked-links.ts';
import type { Clock } from '../../ports/clock.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import type { LinkSettingsRepository } from '../../ports/link-settings-repository.ts';
import type { Repositories, Storage } from '../../ports/storage.ts';
import type { ClickTally, FirstClick, TrackedLink } from '../../ports/tracked-link-repository.ts';
import { waitKeys } from '../../domain/workflow.ts';
import { publishOutboundEvent } from '../webhooks/publish-outbound-event.ts';
import { wakeWaitingRuns } from '../workflows/wake-waiting-runs.ts';
import { OPEN_PIXEL_URL } from './link-tracking.ts';

export interface FollowDeps {
  storage: Storage;
  clock: Clock;
  ids: IdGenerator;
  /** Link lookups (an in-process cache over storage.trackedLinks in the hosts). */
  links: { findByCode(code: string): Promise<TrackedLink | null> };
  /** Custom-domain lookups (cached in the hosts). */
  domains: Pick<LinkSettingsRepository, 'findByVerifiedDomain'>;
  /** The platform's link host (LINK_BASE_URL's host): links of every organization resolve there. */
  platformHost: string;
}

export interface FollowRequest {
  code: string;
  /** The Host the request came to (lowercase, no port). */
  host: string;
  method: string;
  userAgent: string | undefined;
  /** Who clicked, for unique counting: the client address (never stored). */
  client: string;
  /** An open pixel (GET {base}/o/{code}.gif) rather than a redirect. */
  open?: boolean;
}

/** Most distinct clients remembered for unique counting; beyond it, the oldest window entries are dropped. */
const MAX_REMEMBERED = 100_000;

/**
 * The redirect of a tracked link (docs/links.md): only codes a send recorded resolve (no open redirect),
 * until their expiry; on a custom domain only that domain's organization's codes. A GET from a person
 * (not a previewer, bot or script, not HEAD) is tallied in memory: `flush` (every ~1 s and at shutdown)
 * adds the tallies in one statement and publishes one `message.clicked` event per link clicked for the
 * first time, in the same transaction, where it also wakes the workflow runs waiting for a click on the
 * message's event trigger (docs/workflows.md, `wait` for `click`). A failed flush keeps its tallies for the next one.
 */
export class FollowTrackedLink {
  readonly #deps: FollowDeps;
  #tallies = new Map<string, ClickTally>();
  readonly #lastSeen = new Map<string, number>();
  /** User-Agent -> counts as a click (the list check costs more than the rest of a cached redirect). */
  readonly #agents = new Map<string, boolean>();
  constructor(deps: FollowDeps) { this.#deps = deps; }

  /** The address to redirect to (or, for an open pixel, '' when the pixel exists), or null: 404. */
  async execute(request: FollowRequest): Promise<string | null> {
    if (!LINK_CODE_PATTERN.test(request.code)) return null;
    const link = await this.#deps.links.findByCode(request.code);
    const now = this.#deps.clock.now();
    if (!link || (link.expiresAt !== null && link.expiresAt.getTime() <= now.getTime())) return null;
    if ((link.url === OPEN_PIXEL_URL) !== (request.open ?? false)) return null;
    if (request.host !== this.#deps.platformHost) {
      const owner = await this.#deps.domains.findByVerifiedDomain(request.host);
      if (owner && owner.organizationId !== link.organizationId) return null;
    }
    if (request.method === 'GET' && this.#human(request.userAgent)) this.#tally(link.code, `${link.code}|${request.client}|${request.userAgent}`, now);
    return link.url === OPEN_PIXEL_URL ? '' : link.url;
  }

  #human(userAgent: string | undefined): boolean {
    if (userAgent === undefined) return false;
    let human = this.#agents.get(userAgent);
    if (human === undefined) {
      human = countsAsClick(userAgent);
      if (this.#agents.size >= 10_000) this.#agents.clear();
      this.#agents.set(userAgent, human);
    }
    return human;
  }

  #tally(code: string, client: string, now: Date): void {
    const last = this.#lastSeen.get(client);
    const unique = last === undefined || now.getTime() - last >= UNIQUE_CLICK_WINDOW_MS;
    this.#lastSeen.delete(client); // re-insert: the map stays in last-seen order
    this.#lastSeen.set(client, now.getTime());
    if (this.#lastSeen.size > MAX_REMEMBERED) this.#lastSeen.delete(this.#lastSeen.keys().next().value!);
    const tally = this.#tallies.get(code) ?? { code, clicks: 0, uniqueClicks: 0, firstAt: now };
    tally.clicks += 1;
    tally.uniqueClicks += unique ? 1 : 0;
    this.#tallies.set(code, tally);
  }

  /** Clicks tallied and not yet written. */
  get pending(): number {
    let n = 0;
    for (const t of this.#tallies.values()) n += t.clicks;
    return n;
  }

  /** Writes the tallies (one statement) and the first-click events; on failure they are kept for the next flush. */
  async flush(): Promise<void> {
    if (this.#tallies.size === 0) return;
    const tallies = [...this.#tallies.values()];
    this.#tallies = new Map();
    try {
      await this.#deps.storage.transaction(async (tx) => {
        const firsts = await tx.trackedLinks.addClicks(tallies);
        for (const first of firsts) {
          await publishOutboundEvent(tx, {
            id: this.#deps.ids.next(), organizationId: first.organizationId, kind: first.url === OPEN_PIXEL_URL ? 'message.opened' : 'message.clicked', occurredAt: first.clickedAt,
            data: first.url === OPEN_PIXEL_URL ? { messageId: first.messageId, templateId: first.templateId, openedAt: first.clickedAt.toISOString() }
              : { messageId: first.messageId, templateId: first.templateId, url: first.url, code: first.code, clickedAt: first.clickedAt.toISOString() },
          });
        }
        await wakeClickWaits(tx, firsts.filter((f) => f.url !== OPEN_PIXEL_URL));
      });
    } catch (error) {
      for (const t of tallies) {
        const now = this.#tallies.get(t.code);
        this.#tallies.set(t.code, now ? { ...t, clicks: t.clicks + now.clicks, uniqueClicks: t.uniqueClicks + now.uniqueClicks } : t);
      }
      throw error;
    }
  }
}

/** The first clicks' event triggers (a message an event trigger sent), per organization, woken in sorted order. */
async function wakeClickWaits(tx: Repositories, firsts: readonly FirstClick[]): Promise<void> {
  const keys = new Map<string, Set<string>>();
  for (const first of firsts) {
    const step = await tx.eventTriggers.findStepByMessage(first.messageId);
    if (step && step.organizationId === first.organizationId) (keys.get(first.organizationId) ?? keys.set(first.organizationId, new Set()).get(first.organizationId)!).add(waitKeys.click(step.triggerId));
  }
  for (const organizationId of [...keys.keys()].sort()) await wakeWaitingRuns(tx, organizationId, [...keys.get(organizationId)!].sort());
}
