import * as v from 'valibot';
import { AppError } from '../../errors.ts';
import type { Clock } from '../../ports/clock.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import type { Storage } from '../../ports/storage.ts';
import type { TenantDeliveryLimitRepository, TenantDeliveryLimits } from '../../ports/tenant-delivery-limits.ts';
import { parseInput } from '../../validation.ts';
import type { AdminActor } from './admin-actor.ts';

export const DeliveryLimitsPatch = v.object({
  deliveryWeight: v.optional(v.pipe(v.number('must be a number'), v.minValue(0.1, 'must be at least 0.1'), v.maxValue(100, 'must be at most 100'))),
  maxDeliveryPerSecond: v.optional(v.nullable(v.pipe(v.number('must be a number or null'), v.minValue(0.01, 'must be at least 0.01'), v.maxValue(100_000, 'must be at most 100000')))),
});

export interface TenantDeliveryLimitsDeps {
  storage: Pick<Storage, 'organizations' | 'auditLog'>;
  limits: TenantDeliveryLimitRepository;
  ids: IdGenerator;
  clock: Clock;
}

/** The answer of GET and PATCH /admin/tenants/{id}/delivery-limits. */
export function deliveryLimitsView(organizationId: string, limits: TenantDeliveryLimits) {
  return { organizationId, deliveryWeight: limits.weight, maxDeliveryPerSecond: limits.maxPerSecond };
}

/**
 * PATCH /admin/tenants/{id}/delivery-limits (platform administrators; docs/admin.md, "Delivery weight and
 * ceiling"): the organization's fair-share weight between tenants with work waiting (default 1) and its
 * ceiling in deliveries per second across every worker (null: none). An absent field stays as it is. The
 * weight applies to jobs queued from then on; the ceiling within seconds in every worker. Audited as
 * tenant.delivery-limits. Errors: NOT_FOUND (unknown organization), VALIDATION_ERROR.
 */
export class SetTenantDeliveryLimits {
  readonly #deps: TenantDeliveryLimitsDeps;
  constructor(deps: TenantDeliveryLimitsDeps) { this.#deps = deps; }

  async execute(admin: AdminActor, organizationId: string, raw: unknown) {
    const input = parseInput(DeliveryLimitsPatch, raw ?? {});
    const { storage, limits, ids, clock } = this.#deps;
    if (!await storage.organizations.findById(organizationId)) throw new AppError('NOT_FOUND', 'Organization not found');
    const current = await limits.find(organizationId);
    const next: TenantDeliveryLimits = {
      weight: input.deliveryWeight ?? current.weight,
      maxPerSecond: input.maxDeliveryPerSecond === undefined ? current.maxPerSecond : input.maxDeliveryPerSecond,
    };
    const now = clock.now();
    await limits.save(organizationId, next, now);
    await storage.auditLog.record({
      id: ids.next(), actorUserId: admin.userId, impersonatorUserId: null, organizationId, action: 'tenant.delivery-limits',
      target: `organization:${organizationId}`, details: deliveryLimitsView(organizationId, next), createdAt: now,
    });
    return deliveryLimitsView(organizationId, next);
  }
}

