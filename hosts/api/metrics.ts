import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { QueueMonitor } from '../../core/ports/job-queue.ts';
import { QUEUES } from '../../core/ports/job-queue.ts';
import { registerLaneBacklogGauges } from '../lane-backlog-gauges.ts';

/** Prometheus metrics of the API process, served by GET /metrics. */
export class HttpMetrics {
  readonly registry = new Registry();
  readonly #requests: Counter<'method' | 'route' | 'status'>;
  readonly #durations: Histogram<'method' | 'route' | 'status'>;
  /** Messages by channel and resulting status; incremented by the messaging routes. */
  readonly sends: Counter<'channel' | 'status'>;
  /** Inbound messages by vendor and outcome (stored, duplicate, unrouted, invalid); incremented by the vendor callback route. */
  readonly inbound: Counter<'vendor' | 'outcome'>;

  constructor(queues: QueueMonitor | null) {
    collectDefaultMetrics({ register: this.registry, prefix: 'nkra_' });
    this.#requests = new Counter({ name: 'nkra_http_requests_total', help: 'HTTP requests by route and status', labelNames: ['method', 'route', 'status'], registers: [this.registry] });
    this.#durations = new Histogram({
      name: 'nkra_http_request_duration_seconds', help: 'HTTP request duration by route and status', labelNames: ['method', 'route', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5], registers: [this.registry],
    });
    this.sends = new Counter({ name: 'nkra_messages_total', help: 'Messages by channel and status', labelNames: ['channel', 'status'], registers: [this.registry] });
    this.inbound = new Counter({ name: 'nkra_inbound_messages_total', help: 'Inbound messages by vendor and outcome', labelNames: ['vendor', 'outcome'], registers: [this.registry] });
    if (queues) {
      const depth = new Gauge({
        name: 'nkra_queue_jobs', help: 'Jobs per queue and state', labelNames: ['queue', 'state'], registers: [this.registry],
        async collect() {
          for (const queue of Object.values(QUEUES)) {
            const counts = await queues.counts(queue).catch(() => null);
            if (!counts) continue;
            depth.set({ queue, state: 'waiting' }, counts.waiting);
            depth.set({ queue, state: 'active' }, counts.active);
            depth.set({ queue, state: 'failed' }, counts.failed);
          }
        },
      });
      registerLaneBacklogGauges(this.registry, queues);
    }
  }

  observe(method: string, route: string, status: number, seconds: number): void {
    const labels = { method, route, status: String(status) };
    this.#requests.inc(labels);
    this.#durations.observe(labels, seconds);
  }
}
