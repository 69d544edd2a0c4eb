import { DELIVERY_LANES, type DeliveryLane } from '../../core/domain/delivery-lane.ts';

/** Who is waiting for a provider slot: the message's lane and organization (a send without a lane waits in TRANSACTIONAL). */
export interface SlotClaim {
  lane?: DeliveryLane | null;
  organizationId: string;
}

/** One organization's waiters in a lane, first come first served. */
interface TenantLine { organizationId: string; waiters: Array<() => void>; head: number }

/**
 * The order in which sends waiting for one of a provider's concurrency slots get it
 * (docs/adr/0036-delivery-lanes-and-fair-queueing.md, "Provider slots"): a higher lane always first
 * (a passcode never waits behind marketing fetched before it), and inside a lane the organizations take
 * turns, one send each (round robin), each organization's own sends in arrival order. So a tenant's one
 * message fetched behind another tenant's hundreds waits for one slot to free, not for all of them.
 * Every operation is O(1) amortized; nothing is kept for an organization with no waiter.
 */
export class ProviderSlotQueue {
  readonly #lanes = new Map<DeliveryLane, { turns: TenantLine[]; byTenant: Map<string, TenantLine> }>(
    DELIVERY_LANES.map((lane) => [lane, { turns: [], byTenant: new Map() }]),
  );
  #size = 0;

  get size(): number { return this.#size; }

  /** Queues a waiter; `wake` is called once, when `next()` hands it a slot. */
  push(claim: SlotClaim, wake: () => void): void {
    const lane = this.#lanes.get(claim.lane ?? 'TRANSACTIONAL')!;
    let line = lane.byTenant.get(claim.organizationId);
    if (!line) {
      line = { organizationId: claim.organizationId, waiters: [], head: 0 };
      lane.byTenant.set(claim.organizationId, line);
      lane.turns.push(line);
    }
    line.waiters.push(wake);
    this.#size += 1;
  }

  /** The waiter whose turn it is (removed), or undefined when nobody waits. */
  next(): (() => void) | undefined {
    for (const lane of this.#lanes.values()) {
      const line = lane.turns.shift();
      if (!line) continue;
      const wake = line.waiters[line.head]!;
      line.head += 1;
      if (line.head === line.waiters.length) lane.byTenant.delete(line.organizationId);
      else {
        if (line.head > 1024) { line.waiters = line.waiters.slice(line.head); line.head = 0; }
        lane.turns.push(line); // to the back of the round
      }
      this.#size -= 1;
      return wake;
    }
    return undefined;
  }
}
