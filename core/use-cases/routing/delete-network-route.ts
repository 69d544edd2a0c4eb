import { AppError } from '../../errors.ts';
import type { AdminActor } from '../admin/admin-actor.ts';
import { recordPinShift, type RoutingAdminDeps } from './routing-admin.ts';

/** DELETE /admin/network-routes/{id}: the network's messages go back to the country order and price. NOT_FOUND for an unknown id. Audited. */
export class DeleteNetworkRoute {
  readonly #deps: RoutingAdminDeps;
  constructor(deps: RoutingAdminDeps) { this.#deps = deps; }

  async execute(admin: AdminActor, id: string): Promise<{ deleted: true; id: string }> {
    const current = await this.#deps.routes.findById(id);
    if (!current || !(await this.#deps.routes.remove(id))) throw new AppError('NOT_FOUND', 'Network route not found');
    await this.#deps.storage.auditLog.record({
      id: this.#deps.ids.next(), actorUserId: admin.userId, impersonatorUserId: null, organizationId: null, action: 'network_route.delete',
      target: `network_route:${id}`, details: { channel: current.channel, country: current.country, network: current.network }, createdAt: this.#deps.clock.now(),
    });
    if (current.pinned) await recordPinShift(this.#deps, { ...current, pinned: null }, current.pinned, this.#deps.clock.now());
    await this.#deps.onChanged?.();
    return { deleted: true, id };
  }
}
