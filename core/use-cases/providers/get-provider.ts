import { AppError } from '../../errors.ts';
import { healthView, providerView } from '../../domain/provider.ts';
import type { ProviderRepository } from '../../ports/provider-repository.ts';

export const HEALTH_HISTORY_LIMIT = 50;

/** GET /providers/{id}: the provider with its routes and its last 50 health checks. */
export class GetProvider {
  readonly #deps: { providers: ProviderRepository };
  constructor(deps: { providers: ProviderRepository }) { this.#deps = deps; }

  async execute(id: string) {
    const provider = await this.#deps.providers.findById(id);
    if (!provider) throw new AppError('NOT_FOUND', 'Provider not found');
    const history = await this.#deps.providers.healthHistory(id, HEALTH_HISTORY_LIMIT);
    return { ...providerView(provider, history[0] ?? null), healthHistory: history.map(healthView) };
  }
}
