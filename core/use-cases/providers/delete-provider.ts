import { AppError } from '../../errors.ts';
import type { AdminActor } from '../admin/admin-actor.ts';
import type { ProviderAdminDeps } from './provider-admin.ts';

/**
 * DELETE /admin/providers/{id}: removes a provider, its credentials and its health history (messages
 * keep the provider's name). Deactivating (PATCH active: false) keeps them instead. NOT_FOUND for an
 * unknown id. Audited as provider.delete.
 */
export class DeleteProvider {
  readonly #deps: ProviderAdminDeps;
  constructor(deps: ProviderAdminDeps) { this.#deps = deps; }

  async execute(admin: AdminActor, id: string): Promise<{ deleted: true; id: string }> {
    const current = await this.#deps.providers.findById(id);
    if (!current || !(await this.#deps.providers.delete(id))) throw new AppError('NOT_FOUND', 'Provider not found');
    await this.#deps.storage.auditLog.record({
      id: this.#deps.ids.next(), actorUserId: admin.userId, impersonatorUserId: null, organizationId: null, action: 'provider.delete',
      target: `provider:${id}`, details: { name: current.name, vendor: current.vendor }, createdAt: this.#deps.clock.now(),
    });
    await this.#deps.onChanged?.();
    return { deleted: true, id };
  }
}
