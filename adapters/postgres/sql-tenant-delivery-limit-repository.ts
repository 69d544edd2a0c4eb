import { DEFAULT_DELIVERY_LIMITS, type TenantDeliveryLimitRepository, type TenantDeliveryLimits } from '../../core/ports/tenant-delivery-limits.ts';
import type { Database } from './database.ts';
import { sqlRows } from './sql-rows.ts';

/** How long a process reuses an organization's limits before reading them again (a change applies within this). */
const CACHE_MS = 2_000;

/**
 * `delivery_tenant_limits` (migration 0053). `find` is on the delivery path (the ceiling), so answers are
 * cached per process for two seconds; the weight is read by the queue's tag statement itself (pg-lane-clock.ts).
 */
export class SqlTenantDeliveryLimitRepository implements TenantDeliveryLimitRepository {
  readonly #database: Database;
  readonly #cache = new Map<string, { limits: Promise<TenantDeliveryLimits>; until: number }>();
  readonly #cacheMs: number;
  constructor(database: Database, options: { cacheMs?: number } = {}) { this.#database = database; this.#cacheMs = options.cacheMs ?? CACHE_MS; }

  /**
   * One read per organization and cache period, however many deliveries ask at once: a fetched batch is 25
   * messages of one tenant, whose lookups all missed together when the entry expired (25 statements queued
   * for the pool at once, ahead of other tenants' statements; bench:fair-share counted 1,806 reads a
   * 100,000-message drain). Concurrent callers share the read in flight; a failed read is not kept.
   */
  async find(organizationId: string): Promise<TenantDeliveryLimits> {
    const cached = this.#cache.get(organizationId);
    if (cached && cached.until > Date.now()) return { ...(await cached.limits) };
    if (this.#cache.size > 10_000) this.#cache.clear();
    const limits = this.#read(organizationId);
    const entry = { limits, until: Date.now() + this.#cacheMs };
    this.#cache.set(organizationId, entry);
    limits.catch(() => { if (this.#cache.get(organizationId) === entry) this.#cache.delete(organizationId); });
    return { ...(await limits) };
  }

  async #read(organizationId: string): Promise<TenantDeliveryLimits> {
    const [row] = await sqlRows<{ weight: string | number; max_per_second: string | number | null }>(this.#database.em(),
      'select weight, max_per_second from delivery_tenant_limits where organization_id = $1', [organizationId], { prepare: true });
    return row ? { weight: Number(row.weight), maxPerSecond: row.max_per_second === null ? null : Number(row.max_per_second) } : { ...DEFAULT_DELIVERY_LIMITS };
  }

  async save(organizationId: string, limits: TenantDeliveryLimits, now: Date): Promise<void> {
    await sqlRows(this.#database.em(), `insert into delivery_tenant_limits (organization_id, weight, max_per_second, updated_at) values ($1, $2, $3, $4)
      on conflict (organization_id) do update set weight = excluded.weight, max_per_second = excluded.max_per_second, updated_at = excluded.updated_at`,
    [organizationId, limits.weight, limits.maxPerSecond, now]);
    this.#cache.delete(organizationId);
  }
}
