import type { OutboundEvent } from '../../domain/outbound-event.ts';
import type { Clock } from '../../ports/clock.ts';
import { QUEUES } from '../../ports/job-queue.ts';
import type { ProviderRepository } from '../../ports/provider-repository.ts';
import type { RouteShiftAudience } from '../../ports/route-shift-audience.ts';
import type { RouteStatsRepository, StoredRouteShift } from '../../ports/route-stats-repository.ts';
import type { Secrets } from '../../ports/secrets.ts';
import type { Storage } from '../../ports/storage.ts';
import type { WebhookSubscriptions } from '../../ports/webhook-subscriptions.ts';

/** Organizations told about one shift: those with live traffic to the network through the platform in this window. */
export const SHIFT_AUDIENCE_WINDOW_MS = 24 * 60 * 60_000;
/** At most this many organizations per shift, read and published this many at a time (one transaction each). */
export const MAX_SHIFT_AUDIENCE = 10_000;
export const SHIFT_AUDIENCE_PAGE = 500;
/** A publisher's lease on the shifts it claimed; shifts claimed per run. */
const LEASE_MS = 2 * 60_000;
const SHIFTS_PER_RUN = 20;

export interface PublishRouteShiftsDeps {
  routeStats: RouteStatsRepository;
  audience: RouteShiftAudience;
  storage: Pick<Storage, 'transaction'>;
  providers: Pick<ProviderRepository, 'list'>;
  clock: Clock;
  secrets: Pick<Secrets, 'sha256'>;
  /** With it, organizations without an endpoint subscribed to the kind get no event row. */
  subscriptions?: WebhookSubscriptions | undefined;
  /** The platform providers of (channel, country, network) in the current order: names `from` / `to`; without it the other side is null. */
  order?: ((channel: string, country: string, network: string) => readonly string[]) | undefined;
}

/**
 * Announces stored route shifts (learned, recovered, pinned) as `routing.route_shifted` webhook events
 * (docs/routing.md, "Route shift webhooks"): `route_shifts` is the outbox. Each unpublished shift is
 * claimed under a lease, its affected organizations (live messages to the network through the
 * platform's providers of the channel in the last 24 h, at most 10,000) read in pages, and each page's
 * events recorded with their dispatch jobs in one transaction. An event's id is derived from the shift
 * and the organization (a UUIDv7 of the shift's time), and ids already recorded are skipped: a
 * publisher that died mid-way is resumed by the next without publishing anything twice.
 */
export class PublishRouteShifts {
  readonly #deps: PublishRouteShiftsDeps;
  constructor(deps: PublishRouteShiftsDeps) { this.#deps = deps; }

  async execute(): Promise<{ shifts: number; events: number }> {
    const { routeStats, clock } = this.#deps;
    const now = clock.now();
    const claimed = await routeStats.claimUnpublished(now, new Date(now.getTime() + LEASE_MS), SHIFTS_PER_RUN);
    if (claimed.length === 0) return { shifts: 0, events: 0 };
    const platform = (await this.#deps.providers.list()).filter((p) => !p.organizationId);
    let events = 0;
    for (const shift of claimed) {
      const channel = shift.channel ?? platform.find((p) => p.name === shift.provider)?.channel ?? null;
      // A provider removed since: only the organizations whose traffic it carried.
      const names = channel === null ? [shift.provider] : platform.filter((p) => p.channel === channel).map((p) => p.name);
      events += await this.#publish(shift, channel, names);
      await routeStats.markPublished(shift.id, clock.now());
    }
    return { shifts: claimed.length, events };
  }

  async #publish(shift: StoredRouteShift, channel: string | null, providers: readonly string[]): Promise<number> {
    const data = shiftEventData(shift, channel, this.#deps.order);
    const query = { country: shift.country, network: shift.network, providers, since: new Date(shift.at.getTime() - SHIFT_AUDIENCE_WINDOW_MS) };
    let after: string | null = null;
    let read = 0;
    let published = 0;
    while (read < MAX_SHIFT_AUDIENCE) {
      const page = await this.#deps.audience.organizationsReaching(query, after, Math.min(SHIFT_AUDIENCE_PAGE, MAX_SHIFT_AUDIENCE - read));
      if (page.length === 0) break;
      read += page.length;
      after = page[page.length - 1]!;
      const subscribed = await this.#subscribed(page);
      const events: OutboundEvent[] = subscribed.map((organizationId) => ({
        id: routeShiftEventId(this.#deps.secrets, shift, organizationId), organizationId, kind: 'routing.route_shifted', data, occurredAt: shift.at,
      }));
      published += await this.#deps.storage.transaction(async (tx) => {
        const known = new Set((await tx.outboundEvents.findMany(events)).map((e) => e.id));
        const fresh = events.filter((e) => !known.has(e.id));
        for (const event of fresh) await tx.outboundEvents.record(event);
        await tx.jobs.enqueueMany(QUEUES.webhookDispatch, fresh.map((e) => ({ data: { eventId: e.id, organizationId: e.organizationId } })));
        return fresh.length;
      });
      if (page.length < SHIFT_AUDIENCE_PAGE) break;
    }
    return published;
  }

  async #subscribed(organizations: readonly string[]): Promise<string[]> {
    const subscriptions = this.#deps.subscriptions;
    if (!subscriptions) return [...organizations];
    const flags = await Promise.all(organizations.map((id) => subscriptions.hasSubscribers(id, 'routing.route_shifted')));
    return organizations.filter((_, i) => flags[i]);
  }
}

/** `data` of a routing.route_shifted event (docs/webhooks.md). */
export function shiftEventData(shift: StoredRouteShift, channel: string | null, order?: PublishRouteShiftsDeps['order']): Record<string, unknown> {
  const current = channel && order ? order(channel, shift.country, shift.network) : [];
  const other = current.find((name) => name !== shift.provider) ?? null;
  const away = shift.direction === 'away' || shift.direction === 'unpinned';
  return {
    shiftId: shift.id, channel, country: shift.country, network: shift.network, direction: shift.direction,
    from: away ? shift.provider : other, to: away ? other : shift.provider,
    reason: shift.reason, figures: { slowShare: shift.slowShare, deliveryRate: shift.deliveryRate }, at: shift.at.toISOString(),
  };
}

/**
 * The event id of (shift, organization): a UUIDv7 whose time is the shift's (the outbox is partitioned by
 * month of the id) and whose other bits come from a hash of the pair, so a resumed publisher finds the
 * events already recorded.
 */
export function routeShiftEventId(secrets: Pick<Secrets, 'sha256'>, shift: Pick<StoredRouteShift, 'id' | 'at'>, organizationId: string): string {
  const time = Math.max(0, shift.at.getTime()).toString(16).padStart(12, '0').slice(-12);
  const hash = secrets.sha256(`routing.route_shifted:${shift.id}:${organizationId}`);
  const variant = ((parseInt(hash[3]!, 16) & 0x3) | 0x8).toString(16);
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${hash.slice(0, 3)}-${variant}${hash.slice(4, 7)}-${hash.slice(7, 19)}`;
}
