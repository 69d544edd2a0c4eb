import { Gauge, type Registry } from 'prom-client';
import { QUEUES, type LaneBacklog, type QueueMonitor } from '../core/ports/job-queue.ts';

/**
 * Delivery backlog per lane on `registry` (docs/adr/0036-delivery-lanes-and-fair-queueing.md): runnable
 * notification-send jobs waiting, and the oldest one's wait, read when Prometheus scrapes. Per lane only:
 * a tenant label would grow with the tenants (tenants read their own through GET /delivery-logs/backlog).
 */
export function registerLaneBacklogGauges(registry: Registry, queues: QueueMonitor, prefix = 'nkra_'): void {
  // One read per scrape serves both gauges (each collects on its own).
  let last: { at: number; lanes: Promise<LaneBacklog[] | null> } | null = null;
  const read = () => {
    if (!last || Date.now() - last.at > 1_000) last = { at: Date.now(), lanes: queues.laneBacklog(QUEUES.notificationSend).catch(() => null) };
    return last.lanes;
  };
  const gauge = (name: string, help: string, value: (l: LaneBacklog) => number) => {
    const g: Gauge<'lane'> = new Gauge({
      name: `${prefix}${name}`, help, labelNames: ['lane'], registers: [registry],
      async collect() { for (const lane of (await read()) ?? []) g.set({ lane: lane.lane }, value(lane)); },
    });
  };
  gauge('delivery_backlog_jobs', 'Runnable delivery jobs waiting per lane (OTP, TRANSACTIONAL, MARKETING)', (l) => l.waiting);
  gauge('delivery_backlog_oldest_seconds', 'Seconds the oldest runnable delivery job of each lane has waited', (l) => l.oldestWaitingSeconds);
}
