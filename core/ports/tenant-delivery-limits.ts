/** An organization's delivery settings (platform administrators set them; docs/admin.md, "Delivery weight and ceiling"). */
export interface TenantDeliveryLimits {
  /** Fair-share weight between tenants with work waiting in a lane (1: an equal share; 2: twice as many jobs per round). */
  weight: number;
  /** Ceiling on the organization's deliveries per second, across every worker; null: none. */
  maxPerSecond: number | null;
}

export const DEFAULT_DELIVERY_LIMITS: TenantDeliveryLimits = { weight: 1, maxPerSecond: null };

/**
 * Stored delivery limits per organization. Platform-level settings keyed by organization id: `find`
 * answers the defaults for an organization without a row. The job queue reads the weight itself when
 * it tags a tenant's jobs (adapters/queue/pg-lane-clock.ts); delivery reads the ceiling (may be cached
 * for a few seconds by the adapter).
 */
export interface TenantDeliveryLimitRepository {
  find(organizationId: string): Promise<TenantDeliveryLimits>;
  save(organizationId: string, limits: TenantDeliveryLimits, now: Date): Promise<void>;
}
