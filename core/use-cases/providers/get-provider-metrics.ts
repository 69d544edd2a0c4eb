import * as v from 'valibot';
import { VENDOR_CHANNELS } from '../../domain/channel.ts';
import type { BreakerState } from '../../domain/circuit-breaker.ts';
import { healthView } from '../../domain/provider.ts';
import { errorRate, MINUTE_MS, startOfMinute } from '../../domain/provider-metrics.ts';
import type { Clock } from '../../ports/clock.ts';
import type { ProviderMetricsRepository, ProviderAttemptFigures, ProviderAttemptMinute } from '../../ports/provider-metrics-repository.ts';
import type { ProviderRepository } from '../../ports/provider-repository.ts';
import { parseInput } from '../../validation.ts';
import type { AdminActor } from '../admin/admin-actor.ts';

export const MAX_METRICS_MINUTES = 60;
/** Error codes shown per provider (the rest are counted in `failed` only). */
export const TOP_ERROR_CODES = 5;
export const CIRCUIT_SCOPE = 'as seen by this API process';

export const GetProviderMetricsInput = v.object({
  minutes: v.optional(v.pipe(
    v.string('must be a whole number'), v.regex(/^\d{1,3}$/, 'must be a whole number'), v.transform(Number),
    v.number(), v.minValue(1, 'must be at least 1'), v.maxValue(MAX_METRICS_MINUTES, `must be at most ${MAX_METRICS_MINUTES}`),
    v.description(`Minutes to cover, the current one included (default and at most ${MAX_METRICS_MINUTES})`)), String(MAX_METRICS_MINUTES)),
});

export interface GetProviderMetricsDeps {
  metrics: ProviderMetricsRepository;
  providers: ProviderRepository;
  clock: Clock;
  /** The circuit breaker state of a loaded provider in this process; null when it is not loaded here. */
  circuitOf: (providerId: string) => BreakerState['state'] | null;
}

/**
 * GET /admin/provider-metrics (platform administrators): per provider, the delivery attempts of the
 * last `minutes` whole minutes (the current one included) from the shared database: counts, error rate,
 * latency p50/p95/max, top error codes, a per-minute series; its latest health check and its circuit
 * as this API process sees it (workers keep their own breakers). Per channel: messages QUEUED and
 * PENDING now and the age of the oldest QUEUED one.
 */
export class GetProviderMetrics {
  readonly #deps: GetProviderMetricsDeps;
  constructor(deps: GetProviderMetricsDeps) { this.#deps = deps; }

  async execute(_admin: AdminActor, query: unknown = {}) {
    const { minutes } = parseInput(GetProviderMetricsInput, query);
    const now = this.#deps.clock.now();
    const from = new Date(startOfMinute(now).getTime() - (minutes - 1) * MINUTE_MS);
    const to = new Date(startOfMinute(now).getTime() + MINUTE_MS);
    const [attempts, queues, configs, health] = await Promise.all([
      this.#deps.metrics.attempts(from, to, TOP_ERROR_CODES), this.#deps.metrics.queues(), this.#deps.providers.list(), this.#deps.providers.latestHealth(),
    ]);
    const minuteStarts = Array.from({ length: minutes }, (_, i) => new Date(from.getTime() + i * MINUTE_MS));
    const byName = new Map(attempts.providers.map((f) => [f.provider, f]));
    const names = [...new Set([...configs.map((c) => c.name), ...byName.keys()])];
    const providers = names.map((name) => {
      const config = configs.find((c) => c.name === name) ?? null;
      const latest = config ? health.get(config.id) ?? null : null;
      return {
        id: config?.id ?? null, name, vendor: config?.vendor ?? null, channel: config?.channel ?? null, active: config?.active ?? null,
        ...figures(byName.get(name), name),
        series: series(minuteStarts, attempts.minutes.filter((m) => m.provider === name)),
        circuit: config ? this.#deps.circuitOf(config.id) : null,
        health: latest ? healthView(latest) : null,
      };
    });
    const total = series(minuteStarts, attempts.minutes);
    return {
      window: { minutes, from: from.toISOString(), to: to.toISOString(), generatedAt: now.toISOString() },
      circuitScope: CIRCUIT_SCOPE,
      providers,
      series: total.map(({ minute, attempts: n, failed }) => ({ minute, attempts: n, failed })),
      queues: VENDOR_CHANNELS.map((channel) => {
        const q = queues.find((x) => x.channel === channel);
        const oldest = q?.oldestQueuedAt ?? null;
        return {
          channel, queued: q?.queued ?? 0, pending: q?.pending ?? 0, oldestQueuedAt: oldest?.toISOString() ?? null,
          oldestQueuedAgeSeconds: oldest ? Math.max(0, Math.floor((now.getTime() - oldest.getTime()) / 1000)) : null,
        };
      }),
    };
  }
}

function figures(f: ProviderAttemptFigures | undefined, name: string) {
  const { attempts = 0, accepted = 0, failed = 0, p50Ms = null, p95Ms = null, maxMs = null, errors = [] } = f ?? { provider: name };
  return { attempts, accepted, failed, errorRate: errorRate(attempts, failed), latencyMs: { p50: p50Ms, p95: p95Ms, max: maxMs }, topErrors: errors };
}

/** One point per minute of the window (zero when nothing happened); p95 only for a single provider's minutes. */
function series(minuteStarts: readonly Date[], rows: readonly ProviderAttemptMinute[]) {
  return minuteStarts.map((start) => {
    const mine = rows.filter((r) => r.minute.getTime() === start.getTime());
    return {
      minute: start.toISOString(), attempts: mine.reduce((s, r) => s + r.attempts, 0), failed: mine.reduce((s, r) => s + r.failed, 0),
      p95Ms: mine.length === 1 ? mine[0]!.p95Ms : null,
    };
  });
}
