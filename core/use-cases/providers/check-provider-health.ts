import { AppError } from '../../errors.ts';
import { healthView, type ProviderHealthCheck } from '../../domain/provider.ts';
import type { Clock } from '../../ports/clock.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import type { ProviderRepository } from '../../ports/provider-repository.ts';
import type { ProviderHealth } from '../../ports/vendor-adapter.ts';

/** Runs one provider's real health check (an authenticated balance/account call). */
export type HealthCheckRunner = (providerId: string) => Promise<ProviderHealth | null>;

export interface CheckProviderHealthDeps {
  providers: ProviderRepository;
  run: HealthCheckRunner;
  ids: IdGenerator;
  clock: Clock;
  /** Told the outcome so routing can skip unhealthy providers at once. */
  onChecked?: (providerId: string, ok: boolean) => void;
}

/**
 * POST /providers/{id}/health-check and the worker's periodic checks: calls the vendor, records the
 * result in the provider's health history, and returns it. Unknown provider -> NOT_FOUND.
 */
export class CheckProviderHealth {
  readonly #deps: CheckProviderHealthDeps;
  constructor(deps: CheckProviderHealthDeps) { this.#deps = deps; }

  async execute(providerId: string) {
    const provider = await this.#deps.providers.findById(providerId);
    if (!provider) throw new AppError('NOT_FOUND', 'Provider not found');
    const result = (await this.#deps.run(providerId)) ?? { ok: false, latencyMs: 0, detail: 'provider is not loaded (inactive or unknown vendor)', balance: null };
    const check: ProviderHealthCheck = { id: this.#deps.ids.next(), providerId, ...result, checkedAt: this.#deps.clock.now() };
    await this.#deps.providers.recordHealth(check);
    this.#deps.onChecked?.(providerId, check.ok);
    return { providerId, name: provider.name, ...healthView(check) };
  }

  /** Checks every active provider (periodic job); one failing check never stops the others. */
  async executeAll(): Promise<number> {
    const active = (await this.#deps.providers.list()).filter((p) => p.active);
    for (const p of active) await this.execute(p.id).catch(() => undefined);
    return active.length;
  }
}
