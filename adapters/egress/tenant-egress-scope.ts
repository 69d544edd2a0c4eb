import { AsyncLocalStorage } from 'node:async_hooks';
import type { DnsEgressPolicy } from './dns-egress-policy.ts';

/** The egress policy and vendor of the own vendor account whose call is running. */
export interface TenantEgress { policy: DnsEgressPolicy; vendor: string }

const scope = new AsyncLocalStorage<TenantEgress>();

/**
 * Runs an own vendor account's adapter call under the egress policy: the vendor transports
 * (callVendor, Http2VendorSession) read it and connect through the policy. Set in one place, the
 * wrapper every tenant-owned adapter is built with (TenantVendorAdapter), so a vendor call added to
 * any adapter later is guarded without knowing about it; the platform's providers run outside it.
 */
export function withTenantEgress<T>(egress: TenantEgress, work: () => Promise<T>): Promise<T> {
  return scope.run(egress, work);
}

/** The running own account's egress, or null for the platform's providers (operator-configured, not tenant-influenced). */
export function tenantEgress(): TenantEgress | null {
  return scope.getStore() ?? null;
}
