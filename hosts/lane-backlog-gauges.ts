import { Gauge, type Registry } from 'prom-client';
import { QUEUES, type LaneBacklog, type QueueMonitor } from '../core/ports/job-queue.ts';

/**
 * Delivery backlog per lane on `registry` (docs/adr/0036-delivery-lanes-and-fair-queueing.md): runnable
 * notification-send jobs waiting, and the oldest one's wait, read when Prometheus scrapes; and the
 * TOP_TENANTS organizations with the most waiting (`organization_id` label, reset at every scrape so the
 * series stay bounded: a label per tenant ever seen would grow with the tenants; tenants read their own
 * through GET /delivery-logs/backlog).
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
  const tenants: Gauge<'organization_id'> = new Gauge({
    name: `${prefix}delivery_backlog_tenant_jobs`, help: `Runnable delivery jobs waiting of the ${TOP_TENANTS} organizations with the most waiting`,
    labelNames: ['organization_id'], registers: [registry],
    async collect() {
      const top = await queues.tenantBacklog(QUEUES.notificationSend, TOP_TENANTS).catch(() => null);
      tenants.reset();
      for (const t of top ?? []) tenants.set({ organization_id: t.organizationId }, t.waiting);
    },
  });
}

const TOP_TENANTS = 10;
