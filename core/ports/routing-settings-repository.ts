import type { LookupMode } from '../domain/mobile-network.ts';

/** An organization's routing settings (docs/routing.md): its paid number lookup mode; 'off' until set. Tenant data: keyed by the organization. */
export interface RoutingSettingsRepository {
  lookupMode(organizationId: string): Promise<LookupMode>;
  setLookupMode(organizationId: string, mode: LookupMode, now: Date): Promise<void>;
}
