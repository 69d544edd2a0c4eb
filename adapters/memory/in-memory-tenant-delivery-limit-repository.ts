import { DEFAULT_DELIVERY_LIMITS, type TenantDeliveryLimitRepository, type TenantDeliveryLimits } from '../../core/ports/tenant-delivery-limits.ts';
import type { MemoryState } from './memory-state.ts';

/** Delivery limits in the memory state, where InMemoryJobQueue reads the weights. */
export class InMemoryTenantDeliveryLimitRepository implements TenantDeliveryLimitRepository {
  readonly #state: MemoryState;
  constructor(state: MemoryState) { this.#state = state; }

  async find(organizationId: string): Promise<TenantDeliveryLimits> {
    return { ...(this.#state.deliveryLimits.get(organizationId) ?? DEFAULT_DELIVERY_LIMITS) };
  }

  async save(organizationId: string, limits: TenantDeliveryLimits): Promise<void> {
    this.#state.deliveryLimits.set(organizationId, { ...limits });
  }
}
