import type { GetDeliveryBacklog } from '../../../core/use-cases/system/get-delivery-backlog.ts';
import { ok, requireTenant, type RouteDefinition } from '../route.ts';

export interface DeliveryBacklogRouteDeps {
  getDeliveryBacklog: GetDeliveryBacklog;
}

const BODY = '`{ lanes: [{ lane (OTP, TRANSACTIONAL, MARKETING), waiting, oldestWaitingSeconds, drainedLastMinute, drainSpanSeconds, etaSeconds }], waiting, drainPerSecond, etaSeconds }`: '
  + 'runnable messages waiting for delivery, the last minute\'s pace and the ETA at that pace (null when nothing was delivered in the last minute)';
const ADMIN_BODY = `${BODY}; plus \`tenants: [{ organizationId, waiting, oldestWaitingSeconds }]\`, the 20 organizations with the most waiting`;

/** The delivery queue's backlog per lane (docs/adr/0036-delivery-lanes-and-fair-queueing.md): a tenant's own, or the platform's. */
export function deliveryBacklogRoutes(deps: DeliveryBacklogRouteDeps): RouteDefinition[] {
  return [
    {
      method: 'GET', path: '/delivery-logs/backlog', tag: 'Delivery logs', summary: 'The organization\'s messages waiting for delivery, per lane',
      auth: 'tenant', permission: 'delivery-logs:read',
      responses: { 200: BODY, 400: 'ORGANIZATION_REQUIRED', 401: 'UNAUTHORIZED (API keys are not accepted here)', 403: 'FORBIDDEN (not a member, or the role lacks delivery-logs:read)' },
      handler: async (input) => ok(await deps.getDeliveryBacklog.execute(requireTenant(input).organizationId)),
    },
    {
      method: 'GET', path: '/admin/delivery-backlog', tag: 'Admin', summary: 'Every organization\'s messages waiting for delivery, per lane',
      auth: 'platform-admin',
      responses: { 200: ADMIN_BODY, 401: 'UNAUTHORIZED (no or bad Bearer token; API keys are not accepted)', 403: 'FORBIDDEN (not a PLATFORM_SUPER_ADMIN, or an impersonation session)' },
      handler: async () => ok(await deps.getDeliveryBacklog.execute(null)),
    },
  ];
}
