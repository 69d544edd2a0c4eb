import { DELIVERY_LANES, type DeliveryLane } from '../../core/domain/delivery-lane.ts';

/**
 * A lane and a fair-queueing tag folded into one job priority (docs/adr/0036-delivery-lanes-and-fair-queueing.md),
 * shared by the pg-boss and in-memory queues, which both fetch `priority desc, created_on`. Each lane owns a
 * band of SPAN integers, bands disjoint and ordered OTP > TRANSACTIONAL > MARKETING > (no lane: 0); inside a
 * band a smaller tag is a higher priority. Tags past SPAN saturate at the band's floor (FIFO among them).
 */
const SPAN = 500_000_000;
const TOP: Readonly<Record<DeliveryLane, number>> = { OTP: 2_000_000_000, TRANSACTIONAL: 1_400_000_000, MARKETING: 800_000_000 };

/** The priority of a runnable job of `lane` with fair-queueing tag `tag` (>= 0). */
export function lanePriority(lane: DeliveryLane, tag: number): number {
  return TOP[lane] - Math.min(Math.max(0, Math.floor(tag)), SPAN);
}

/** A delayed job of `lane` (a sync send's safety net): the band's floor, so it never holds the lane's clock back. */
export function delayedPriority(lane: DeliveryLane): number {
  return TOP[lane] - SPAN;
}

/** Inclusive bounds of `lane`'s band. */
export function laneBand(lane: DeliveryLane): { low: number; high: number } {
  return { low: TOP[lane] - SPAN, high: TOP[lane] };
}

/** The tag a priority of `lane`'s band carries. */
export function tagOf(lane: DeliveryLane, priority: number): number {
  return TOP[lane] - priority;
}

/** The lane a job priority belongs to; null for a job enqueued without one. */
export function laneOfPriority(priority: number): DeliveryLane | null {
  return DELIVERY_LANES.find((lane) => priority >= TOP[lane] - SPAN && priority <= TOP[lane]) ?? null;
}

/**
 * Start-time fair queueing: a tenant's next `count` jobs get consecutive tags from after both its own last
 * tag and the lane's clock (`now`: the smallest tag still waiting, or the largest ever given when nothing
 * waits). A tenant with a backlog queues behind itself; one arriving fresh starts at the lane's clock.
 * A tenant of weight w steps 1/w per job (priorities floor the tag: w jobs share each priority), so it is
 * served w jobs per round of the others' one.
 */
export function nextTags(lastTag: number | undefined, now: number, count: number, weight = 1): number[] {
  const step = 1 / weight;
  const start = Math.max(lastTag ?? 0, now) + step;
  return Array.from({ length: count }, (_, i) => start + i * step);
}
