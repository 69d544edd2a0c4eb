import { AppError } from '../../core/errors.ts';
import type { LinkSettings } from '../../core/domain/link-settings.ts';
import type { LinkSettingsRepository } from '../../core/ports/link-settings-repository.ts';
import { copy, type MemoryState } from './memory-state.ts';

export class InMemoryLinkSettingsRepository implements LinkSettingsRepository {
  readonly #state: MemoryState;
  constructor(state: MemoryState) { this.#state = state; }

  async find(organizationId: string): Promise<LinkSettings | null> {
    const s = this.#state.linkSettings.get(organizationId);
    return s ? copy(s) : null;
  }

  async save(settings: LinkSettings): Promise<void> {
    if (settings.customDomain && settings.domainVerifiedAt) {
      const other = [...this.#state.linkSettings.values()].find((s) => s.organizationId !== settings.organizationId && s.customDomain === settings.customDomain && s.domainVerifiedAt);
      if (other) throw new AppError('CONFLICT', 'The domain is verified by another organization');
    }
    this.#state.linkSettings.set(settings.organizationId, copy(settings));
  }

  async findByVerifiedDomain(domain: string): Promise<LinkSettings | null> {
    const s = [...this.#state.linkSettings.values()].find((x) => x.customDomain === domain && x.domainVerifiedAt);
    return s ? copy(s) : null;
  }
}
