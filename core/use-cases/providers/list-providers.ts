import { providerView } from '../../domain/provider.ts';
import type { ProviderRepository } from '../../ports/provider-repository.ts';

/** GET /providers: every provider of the five channels with its routes and latest health. */
export class ListProviders {
  readonly #deps: { providers: ProviderRepository };
  constructor(deps: { providers: ProviderRepository }) { this.#deps = deps; }

  async execute() {
    const [providers, latest] = await Promise.all([this.#deps.providers.list(), this.#deps.providers.latestHealth()]);
    return providers.map((p) => providerView(p, latest.get(p.id) ?? null));
  }
}
