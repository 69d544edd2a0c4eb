import { AppError } from '../../errors.ts';
import { healthView, type ProviderHealthCheck } from '../../domain/provider.ts';
import type { Clock } from '../../ports/clock.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import type { ProviderRepository } from '../../ports/provider-repository.ts';
import type { RateLimiter } from '../../ports/rate-limiter.ts';
import type { ProviderHealth } from '../../ports/vendor-adapter.ts';

/** A check younger than this is answered to an on-demand request instead of calling the vendor again. */
export const SHARED_CHECK_SECONDS = 30;
/** On-demand checks one user may start per minute (platform administrators are not limited). */
export const ON_DEMAND_CHECKS_PER_MINUTE = 10;

/** Runs one provider's real health check (an authenticated balance/account call). */
export type HealthCheckRunner = (providerId: string) => Promise<ProviderHealth | null>;

export interface CheckProviderHealthDeps {
  providers: ProviderRepository;
  run: HealthCheckRunner;
  ids: IdGenerator;
  clock: Clock;
  /** Told the outcome so routing can skip unhealthy providers at once. */
  onChecked?: (providerId: string, ok: boolean) => void;
  /** Limits on-demand checks per user (absent: unlimited). */
  rateLimiter?: RateLimiter;
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

  /**
   * POST /providers/{id}/health-check, open to every signed-in user (the spec's JWT operation): a check
   * recorded in the last SHARED_CHECK_SECONDS is answered as it is (`shared: true`, no vendor call), so
   * many tenants asking at once cost the vendor one call; otherwise a user may start
   * ON_DEMAND_CHECKS_PER_MINUTE checks a minute (RATE_LIMITED beyond), administrators any number.
   */
  async executeOnDemand(providerId: string, requester: { userId: string; platformAdmin: boolean }) {
    const provider = await this.#deps.providers.findById(providerId);
    if (!provider) throw new AppError('NOT_FOUND', 'Provider not found');
    const [latest] = await this.#deps.providers.healthHistory(providerId, 1);
    if (latest && this.#deps.clock.now().getTime() - latest.checkedAt.getTime() < SHARED_CHECK_SECONDS * 1000) {
      return { providerId, name: provider.name, ...healthView(latest), shared: true };
    }
    if (!requester.platformAdmin && this.#deps.rateLimiter) {
      const verdict = await this.#deps.rateLimiter.hit(`provider-health:${requester.userId}`, ON_DEMAND_CHECKS_PER_MINUTE, 60);
      if (!verdict.allowed) throw new AppError('RATE_LIMITED', 'Too many health checks; try again shortly', { retryAfterSeconds: verdict.retryAfterSeconds });
    }
    return { ...(await this.execute(providerId)), shared: false };
  }

  /** Checks every active provider (periodic job); one failing check never stops the others. */
  async executeAll(): Promise<number> {
    const active = (await this.#deps.providers.list()).filter((p) => p.active);
    for (const p of active) await this.execute(p.id).catch(() => undefined);
    return active.length;
  }
}
