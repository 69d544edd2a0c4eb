import { AppError } from '../../errors.ts';
import { deliveryLimitsView, type TenantDeliveryLimitsDeps } from './set-tenant-delivery-limits.ts';

/** GET /admin/tenants/{id}/delivery-limits: the organization's weight and ceiling (defaults when never set). NOT_FOUND for an unknown organization. */
export class GetTenantDeliveryLimits {
  readonly #deps: Pick<TenantDeliveryLimitsDeps, 'storage' | 'limits'>;
  constructor(deps: Pick<TenantDeliveryLimitsDeps, 'storage' | 'limits'>) { this.#deps = deps; }

  async execute(organizationId: string) {
    if (!await this.#deps.storage.organizations.findById(organizationId)) throw new AppError('NOT_FOUND', 'Organization not found');
    return deliveryLimitsView(organizationId, await this.#deps.limits.find(organizationId));
  }
}
