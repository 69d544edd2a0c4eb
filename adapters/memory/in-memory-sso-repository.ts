import { AppError } from '../../core/errors.ts';
import type { SsoConnection, SsoDomain } from '../../core/domain/sso.ts';
import type { SsoRepository } from '../../core/ports/sso-repository.ts';
import { copy, type MemoryState } from './memory-state.ts';

export class InMemorySsoRepository implements SsoRepository {
  readonly #state: MemoryState;
  constructor(state: MemoryState) { this.#state = state; }

  async findConnection(organizationId: string): Promise<SsoConnection | null> {
    const found = this.#state.ssoConnections.get(organizationId);
    return found ? copy(found) : null;
  }

  async saveConnection(connection: SsoConnection): Promise<void> {
    const clash = connection.slug !== null && [...this.#state.ssoConnections.values()]
      .some((c) => c.slug === connection.slug && c.organizationId !== connection.organizationId);
    if (clash) throw new AppError('SLUG_EXISTS', 'Another organization uses this slug');
    this.#state.ssoConnections.set(connection.organizationId, copy(connection));
  }

  async findConnectionBySlug(slug: string): Promise<SsoConnection | null> {
    const found = [...this.#state.ssoConnections.values()].find((c) => c.slug === slug);
    return found ? copy(found) : null;
  }

  async addDomain(domain: SsoDomain): Promise<void> {
    if ([...this.#state.ssoDomains.values()].some((d) => d.organizationId === domain.organizationId && d.domain === domain.domain)) {
      throw new AppError('DOMAIN_TAKEN', `${domain.domain} is already claimed by this organization`);
    }
    this.#state.ssoDomains.set(domain.id, copy(domain));
  }

  async listDomains(organizationId: string, limit: number): Promise<SsoDomain[]> {
    return [...this.#state.ssoDomains.values()].filter((d) => d.organizationId === organizationId)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1)).slice(0, limit).map(copy);
  }

  async findDomain(organizationId: string, id: string): Promise<SsoDomain | null> {
    const found = this.#state.ssoDomains.get(id);
    return found && found.organizationId === organizationId ? copy(found) : null;
  }

  async markVerified(organizationId: string, id: string, at: Date): Promise<SsoDomain | null> {
    const found = this.#state.ssoDomains.get(id);
    if (!found || found.organizationId !== organizationId) return null;
    if (found.verifiedAt) return copy(found);
    const holder = [...this.#state.ssoDomains.values()].find((d) => d.domain === found.domain && d.verifiedAt !== null && d.id !== id);
    if (holder) throw new AppError('DOMAIN_TAKEN', `${found.domain} is verified by another organization`);
    found.verifiedAt = at;
    return copy(found);
  }

  async removeDomain(organizationId: string, id: string): Promise<boolean> {
    const found = this.#state.ssoDomains.get(id);
    if (!found || found.organizationId !== organizationId) return false;
    return this.#state.ssoDomains.delete(id);
  }

  async findVerifiedDomain(domain: string): Promise<SsoDomain | null> {
    const found = [...this.#state.ssoDomains.values()].find((d) => d.domain === domain && d.verifiedAt !== null);
    return found ? copy(found) : null;
  }
}
