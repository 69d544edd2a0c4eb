import type { GetTenantDeliveryLimits } from '../../../core/use-cases/admin/get-tenant-delivery-limits.ts';
import { DeliveryLimitsPatch, type SetTenantDeliveryLimits } from '../../../core/use-cases/admin/set-tenant-delivery-limits.ts';
import { ok, requireUser, type RouteDefinition } from '../route.ts';

const DENIED = {
  401: 'UNAUTHORIZED (no or bad Bearer token; API keys are not accepted)',
  403: 'FORBIDDEN (not a PLATFORM_SUPER_ADMIN, or an impersonation session)',
};
const VIEW = '{ organizationId, deliveryWeight, maxDeliveryPerSecond (null: no ceiling) }';

/** An organization's delivery weight and ceiling (docs/admin.md, "Delivery weight and ceiling"). */
export function deliveryLimitRoutes(deps: { getTenantDeliveryLimits: GetTenantDeliveryLimits; setTenantDeliveryLimits: SetTenantDeliveryLimits }): RouteDefinition[] {
  return [
    {
      method: 'GET', path: '/admin/tenants/:id/delivery-limits', tag: 'Admin', summary: 'A tenant\'s fair-share weight and delivery ceiling (messages/s)',
      auth: 'platform-admin', responses: { 200: VIEW, ...DENIED, 404: 'NOT_FOUND (unknown organization)' },
      handler: async (input) => ok(await deps.getTenantDeliveryLimits.execute(input.params['id'] ?? '')),
    },
    {
      method: 'PATCH', path: '/admin/tenants/:id/delivery-limits', tag: 'Admin', summary: 'Set a tenant\'s fair-share weight and delivery ceiling (audited)',
      auth: 'platform-admin', body: DeliveryLimitsPatch,
      responses: { 200: VIEW, 400: 'VALIDATION_ERROR (deliveryWeight 0.1-100, maxDeliveryPerSecond 0.01-100000 or null)', ...DENIED, 404: 'NOT_FOUND (unknown organization)' },
      handler: async (input) => ok(await deps.setTenantDeliveryLimits.execute({ userId: requireUser(input).userId }, input.params['id'] ?? '', input.body)),
    },
  ];
}
