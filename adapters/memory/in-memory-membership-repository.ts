import { AppError } from '../../core/errors.ts';
import type { Membership } from '../../core/domain/organization.ts';
import type { MembershipRepository } from '../../core/ports/membership-repository.ts';
import { copy, type MemoryState } from './memory-state.ts';

export class InMemoryMembershipRepository implements MembershipRepository {
  readonly #state: MemoryState;
  constructor(state: MemoryState) { this.#state = state; }

  async insert(membership: Membership): Promise<void> {
    if (this.#all().some((m) => m.organizationId === membership.organizationId && m.userId === membership.userId)) {
      throw new AppError('CONFLICT', 'user is already a member');
    }
    this.#state.memberships.set(membership.id, copy(membership));
  }

  async find(organizationId: string, userId: string): Promise<Membership | null> {
    const m = this.#all().find((x) => x.organizationId === organizationId && x.userId === userId);
    return m ? copy(m) : null;
  }

  async listByOrganization(organizationId: string, limit: number): Promise<Membership[]> {
    return this.#sorted().filter((m) => m.organizationId === organizationId).slice(0, limit).map(copy);
  }

  async listByUser(userId: string, limit: number): Promise<Membership[]> {
    return this.#sorted().filter((m) => m.userId === userId).slice(0, limit).map(copy);
  }

  async countByOrganization(organizationId: string): Promise<number> {
    return this.#all().filter((m) => m.organizationId === organizationId).length;
  }

  #all(): Membership[] { return [...this.#state.memberships.values()]; }
  #sorted(): Membership[] {
    return this.#all().sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id));
  }
}
