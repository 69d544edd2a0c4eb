import { DELIVERY_LANES, type DeliveryLane } from '../../core/domain/delivery-lane.ts';

/** Who is waiting for a provider slot: the message's lane and organization (a send without a lane waits in TRANSACTIONAL). */
export interface SlotClaim {
  lane?: DeliveryLane | null;
  organizationId: string;
}

interface Waiter { organizationId: string; wake: () => void }

/** A first-in-first-out line with O(1) removal from the front. */
class Line {
  #items: Waiter[] = [];
  #head = 0;
  get length(): number { return this.#items.length - this.#head; }
  push(w: Waiter): void { this.#items.push(w); }
  shift(): Waiter | undefined {
    if (this.#head >= this.#items.length) return undefined;
    const w = this.#items[this.#head]!;
    this.#head += 1;
    if (this.#head > 1024 && this.#head * 2 > this.#items.length) { this.#items = this.#items.slice(this.#head); this.#head = 0; }
    return w;
  }
}

/**
 * The order in which sends waiting for one of a provider's concurrency slots get it
 * (docs/adr/0036-delivery-lanes-and-fair-queueing.md, "Provider slots"): a higher lane always first
 * (a passcode never waits behind marketing fetched before it). Inside a lane, a send of an organization
 * that had nothing waiting in the lane (a sparse sender: another tenant's one message, fetched behind a
 * backlog) goes before the sends of organizations already waiting, which go in arrival order. Arrival order
 * among backlogged organizations keeps the fetched batches completing in the order they were fetched (the
 * fetch already interleaves tenants fairly); a round robin there would hold every batch open until its
 * last send and slow the drain. Every operation is O(1) amortized.
 */
export class ProviderSlotQueue {
  readonly #lanes = new Map<DeliveryLane, { sparse: Line; backlog: Line; waiting: Map<string, number> }>(
    DELIVERY_LANES.map((lane) => [lane, { sparse: new Line(), backlog: new Line(), waiting: new Map() }]),
  );
  #size = 0;

  get size(): number { return this.#size; }

  /** Queues a waiter; `wake` is called once, when `next()` hands it a slot. */
  push(claim: SlotClaim, wake: () => void): void {
    const lane = this.#lanes.get(claim.lane ?? 'TRANSACTIONAL')!;
    const waiting = lane.waiting.get(claim.organizationId) ?? 0;
    (waiting === 0 ? lane.sparse : lane.backlog).push({ organizationId: claim.organizationId, wake });
    lane.waiting.set(claim.organizationId, waiting + 1);
    this.#size += 1;
  }

  /** The waiter whose turn it is (removed), or undefined when nobody waits. */
  next(): (() => void) | undefined {
    for (const lane of this.#lanes.values()) {
      const waiter = lane.sparse.shift() ?? lane.backlog.shift();
      if (!waiter) continue;
      const left = (lane.waiting.get(waiter.organizationId) ?? 1) - 1;
      if (left === 0) lane.waiting.delete(waiter.organizationId); else lane.waiting.set(waiter.organizationId, left);
      this.#size -= 1;
      return waiter.wake;
    }
    return undefined;
  }
}
