import type { InboxStreamLease, InboxStreamLeases } from '../../core/ports/inbox-stream-leases.ts';

/** InboxStreamLeases in one process's memory (tests, and embedders with a single API process). */
export class InMemoryInboxStreamLeases implements InboxStreamLeases {
  readonly #leases = new Map<string, InboxStreamLease & { expiresAt: Date }>();

  async acquire(lease: InboxStreamLease, limit: number, now: Date, expiresAt: Date): Promise<boolean> {
    // Count and insert without an await between them: atomic in one process.
    this.#dropExpired(now);
    const held = [...this.#leases.values()].filter((l) => l.organizationId === lease.organizationId && l.subscriberId === lease.subscriberId).length;
    if (held >= limit) return false;
    this.#leases.set(lease.id, { ...lease, expiresAt });
    return true;
  }

  async renew(ids: readonly string[], now: Date, expiresAt: Date): Promise<void> {
    for (const id of ids) {
      const lease = this.#leases.get(id);
      if (lease && lease.expiresAt > now) lease.expiresAt = expiresAt;
    }
    this.#dropExpired(now);
  }

  async release(ids: readonly string[]): Promise<void> {
    for (const id of ids) this.#leases.delete(id);
  }

  #dropExpired(now: Date): void {
    for (const [id, lease] of this.#leases) if (lease.expiresAt <= now) this.#leases.delete(id);
  }
}
