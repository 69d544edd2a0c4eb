import { DELIVERY_LANES, type DeliveryLane } from '../../core/domain/delivery-lane.ts';

/**
 * A lane and a fair-queueing tag folded into one job priority (docs/adr/0036-delivery-lanes-and-fair-queueing.md),
 * shared by the pg-boss and in-memory queues, which both fetch `priority desc, created_on`. Each lane owns a
 * band of SPAN integers, bands disjoint and ordered OTP > TRANSACTIONAL > MARKETING > (no lane: 0).
 *
 * Inside a band the tags are served in rounds of FAIR_QUANTUM consecutive tags: a tenant with a backlog
 * is served FAIR_QUANTUM jobs in a row (its own consecutive messages: one fetched batch touches one
 * tenant's neighbouring rows and index entries, as first-in-first-out did), then the next tenant. A band
 * has two halves: the upper, sparse half holds the first job of a tenant that had nothing waiting (a
 * passcode, a single transactional message: served next, before the backlogs), the lower, regular half
 * every other job; each half orders by round. (A sparse job is tagged in the round being served, so being
 * above every regular round puts it only before the backlogs it would have met in its own round.) The
 * sparse halves of TRANSACTIONAL and OTP together are one range of priorities: the worker's express fetch
 * loop takes only that range (EXPRESS_MIN_PRIORITY). Rounds past a half saturate at its floor (FIFO among them).
 */
const SPAN = 500_000_000;
const HALF = SPAN / 2;
const TOP: Readonly<Record<DeliveryLane, number>> = { OTP: 2_000_000_000, TRANSACTIONAL: 1_400_000_000, MARKETING: 800_000_000 };

/**
 * Consecutive tags sharing one round of the fair queue: a backlogged tenant's jobs served in a row (four
 * fetched batches of 25). A round's jobs queued together share pg-boss's whole fetch key (name, priority,
 * created_on, start_after), which PostgreSQL keeps as one index entry listing them all (B-tree
 * deduplication): the longer the round, the fewer and fuller the pages of `job_i11`. Every fetch walks that
 * index from its start over the entries of the jobs already fetched (until a vacuum removes them), so its cost
 * grows with those pages: with rounds of 25 a fair drain walked 2.3 times the pages first-in-first-out did,
 * 1.7 times with rounds of 100 (docs/adr/0036, "seventh round").
 */
export const FAIR_QUANTUM = 100;

/**
 * The priority of a runnable job of `lane` with fair-queueing tag `tag` (>= 0): its round in the regular
 * half, or, for the first job of a tenant that had nothing waiting (`sparse`), its round in the sparse half.
 */
export function lanePriority(lane: DeliveryLane, tag: number, sparse = false): number {
  const round = Math.max(0, Math.floor(tag / FAIR_QUANTUM));
  return sparse ? TOP[lane] - Math.min(round, HALF - 1) : TOP[lane] - HALF - Math.min(round, HALF);
}

/**
 * The lowest priority the express fetch loop takes: every OTP job and the sparse half of TRANSACTIONAL (a
 * quiet tenant's single message), never a backlog's regular transactional or any marketing job.
 */
export const EXPRESS_MIN_PRIORITY = TOP.TRANSACTIONAL - HALF + 1;

/** The top of `lane`'s regular half (its sparse half lies above it). */
export function regularTop(lane: DeliveryLane): number {
  return TOP[lane] - HALF;
}

/** A delayed job of `lane` (a sync send's safety net): the band's floor, so it never holds the lane's clock back. */
export function delayedPriority(lane: DeliveryLane): number {
  return TOP[lane] - SPAN;
}

/** Inclusive bounds of `lane`'s band. */
export function laneBand(lane: DeliveryLane): { low: number; high: number } {
  return { low: TOP[lane] - SPAN, high: TOP[lane] };
}

/** The first tag of the round a priority of `lane`'s band stands for (either half). */
export function tagOf(lane: DeliveryLane, priority: number): number {
  const below = TOP[lane] - priority;
  return (below < HALF ? below : below - HALF) * FAIR_QUANTUM;
}

/** The lane a job priority belongs to; null for a job enqueued without one. */
export function laneOfPriority(priority: number): DeliveryLane | null {
  return DELIVERY_LANES.find((lane) => priority >= TOP[lane] - SPAN && priority <= TOP[lane]) ?? null;
}

/**
 * Start-time fair queueing: a tenant's next `count` jobs get consecutive tags from after both its own last
 * tag and the lane's clock (`now`: the first tag of the round of the highest waiting job, or the largest tag
 * ever given when nothing waits). A tenant with a backlog queues behind itself; one arriving fresh starts at
 * the lane's clock, in the round being served. A tenant of weight w steps 1/w per job (w * FAIR_QUANTUM jobs
 * a round), so it is served w jobs per round of the others' one.
 */
export function nextTags(lastTag: number | undefined, now: number, count: number, weight = 1): number[] {
  const step = 1 / weight;
  const start = lastTag === undefined ? now : Math.max(lastTag + step, now);
  return Array.from({ length: count }, (_, i) => start + i * step);
}

/** Whether a job tagged `tag` is its tenant's first since it had nothing waiting: it started at the clock `now`. */
export function startsSparse(tag: number, now: number): boolean {
  return tag <= now + 1e-9; // tags of weighted tenants are fractions summed in float8
}
