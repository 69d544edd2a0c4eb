import type { Organization, OrganizationChanges } from '../../core/domain/organization.ts';
import type { OrganizationRepository } from '../../core/ports/organization-repository.ts';
import { copy, type MemoryState } from './memory-state.ts';

export class InMemoryOrganizationRepository implements OrganizationRepository {
  readonly #state: MemoryState;
  constructor(state: MemoryState) { this.#state = state; }

  async insert(organization: Organization): Promise<void> {
    this.#state.organizations.set(organization.id, copy(organization));
  }

  async findById(id: string): Promise<Organization | null> {
    const org = this.#state.organizations.get(id);
    return org ? copy(org) : null;
  }

  async findManyByIds(ids: readonly string[]): Promise<Organization[]> {
    return [...new Set(ids)].flatMap((id) => { const org = this.#state.organizations.get(id); return org ? [copy(org)] : []; });
  }

  async update(id: string, changes: OrganizationChanges, now: Date): Promise<Organization | null> {
    const org = this.#state.organizations.get(id);
    if (!org) return null;
    Object.assign(org, copy(changes), { updatedAt: now });
    return copy(org);
  }

  async setPaused(id: string, paused: boolean, now: Date): Promise<Organization | null> {
    const org = this.#state.organizations.get(id);
    if (!org) return null;
    Object.assign(org, { paused, updatedAt: now });
    return copy(org);
  }
}
