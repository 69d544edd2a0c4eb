import type { Clock } from '../../ports/clock.ts';
import type { DependencyProbe, ProbeResult } from '../../ports/dependency-probe.ts';
import { QUEUES, type QueueMonitor } from '../../ports/job-queue.ts';

export interface HealthDeps {
  database: DependencyProbe;
  cache: DependencyProbe;
  queue: DependencyProbe;
  queues: QueueMonitor;
  clock: Clock;
}

/** Builds the spec's health body; `healthy` is false when a configured dependency is degraded. */
export class CheckHealth {
  readonly #deps: HealthDeps;
  constructor(deps: HealthDeps) { this.#deps = deps; }

  async execute() {
    const [database, cache, queue] = await Promise.all([this.#deps.database.check(), this.#deps.cache.check(), this.#deps.queue.check()]);
    const counts = queue.status === 'ok' ? await this.#deps.queues.counts(QUEUES.notificationSend).catch(() => null) : null;
    const degraded = [database, cache, queue].some((r) => r.configured && r.status === 'degraded');
    return {
      healthy: !degraded,
      body: {
        status: degraded ? 'degraded' as const : 'ok' as const,
        service: 'nkra',
        timestamp: this.#deps.clock.now().toISOString(),
        dependencies: {
          redis: { status: cache.status, latencyMs: cache.latencyMs, message: cache.message },
          database: { status: database.status, message: database.message, latencyMs: database.latencyMs },
          workers: {
            status: queue.status, message: queue.message, latencyMs: queue.latencyMs,
            notificationSend: counts ?? { waiting: 0, active: 0, completed: 0, failed: 0, workers: 0 },
          },
        },
      },
    };
  }
}

export function timed(configured: boolean, check: () => Promise<string>): Promise<ProbeResult> {
  const started = performance.now();
  return check().then(
    (message) => ({ status: 'ok' as const, message, latencyMs: Math.round(performance.now() - started), configured }),
    (error: unknown) => ({ status: 'degraded' as const, message: error instanceof Error ? error.message : String(error), latencyMs: Math.round(performance.now() - started), configured }),
  );
}
