import * as v from 'valibot';
import { organizationView } from '../../domain/organization.ts';
import { AppError } from '../../errors.ts';
import type { Clock } from '../../ports/clock.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import type { Storage } from '../../ports/storage.ts';
import { parseInput } from '../../validation.ts';
import type { AdminActor } from './admin-actor.ts';

export const PauseTenantInput = v.object({
  reason: v.optional(v.pipe(v.string('must be a string'), v.trim(), v.maxLength(500, 'must be at most 500 characters'))),
});

/**
 * POST /admin/tenants/{id}/pause and /resume. A paused tenant's every send is REJECTED with
 * FRAUD_TENANT_PAUSED (accept-messages.ts reads the flag in the send transaction). Idempotent;
 * audited as tenant.pause / tenant.resume. Errors: NOT_FOUND (unknown organization).
 */
export class SetTenantPaused {
  readonly #deps: { storage: Storage; ids: IdGenerator; clock: Clock };
  constructor(deps: { storage: Storage; ids: IdGenerator; clock: Clock }) { this.#deps = deps; }

  async execute(admin: AdminActor, organizationId: string, paused: boolean, raw: unknown = {}) {
    const input = parseInput(PauseTenantInput, raw ?? {});
    const { storage, ids, clock } = this.#deps;
    const now = clock.now();
    return storage.transaction(async (tx) => {
      const organization = await tx.organizations.setPaused(organizationId, paused, now);
      if (!organization) throw new AppError('NOT_FOUND', 'Organization not found');
      await tx.auditLog.record({
        id: ids.next(), actorUserId: admin.userId, impersonatorUserId: null, organizationId, action: paused ? 'tenant.pause' : 'tenant.resume',
        target: `organization:${organizationId}`, details: input.reason ? { reason: input.reason } : {}, createdAt: now,
      });
      return organizationView(organization);
    });
  }
}
