import { QUEUES, type LaneBacklog, type QueueMonitor, type TenantBacklog } from '../../ports/job-queue.ts';

export interface LaneBacklogView extends LaneBacklog {
  /** Seconds until the lane's waiting messages are delivered at the last minute's pace (drained / span); null when nothing was delivered in it. */
  etaSeconds: number | null;
}

export interface DeliveryBacklog {
  /** Runnable delivery jobs waiting per lane (OTP, TRANSACTIONAL, MARKETING), the oldest one's wait, the last minute's drain and the ETA. */
  lanes: LaneBacklogView[];
  waiting: number;
  /** Messages delivered per second over the last minute (or since the first delivery in it), every lane together, to 0.1. */
  drainPerSecond: number;
  /** Seconds until every waiting message is delivered at that pace; 0 when none waits, null when none waits to be drained at a known pace. */
  etaSeconds: number | null;
  /** Platform view only: the organizations with the most messages waiting (at most 20), most first. */
  tenants?: TenantBacklog[];
}

const TOP_TENANTS = 20;

const eta = (waiting: number, perSecond: number): number | null => (waiting === 0 ? 0 : perSecond === 0 ? null : Math.ceil(waiting / perSecond));

/**
 * The delivery queue's backlog per lane (docs/adr/0036-delivery-lanes-and-fair-queueing.md): one
 * organization's own (a tenant sees its backlog and ETA), or every organization's with the biggest
 * waiting tenants (platform administrators). Scheduled and delayed messages are not in it until they are due.
 * The ETA assumes the last minute's pace holds: a tenant's pace is its fair share of the workers.
 */
export class GetDeliveryBacklog {
  readonly #deps: { queues: QueueMonitor };
  constructor(deps: { queues: QueueMonitor }) { this.#deps = deps; }

  async execute(organizationId: string | null): Promise<DeliveryBacklog> {
    const lanes = await this.#deps.queues.laneBacklog(QUEUES.notificationSend, organizationId ?? undefined);
    const waiting = lanes.reduce((sum, l) => sum + l.waiting, 0);
    const drained = lanes.reduce((sum, l) => sum + l.drainedLastMinute, 0);
    const span = Math.max(1, ...lanes.filter((l) => l.drainedLastMinute > 0).map((l) => l.drainSpanSeconds));
    const perSecond = drained / span;
    const backlog: DeliveryBacklog = {
      lanes: lanes.map((l) => ({ ...l, etaSeconds: eta(l.waiting, l.drainedLastMinute / l.drainSpanSeconds) })),
      waiting,
      drainPerSecond: Math.round(perSecond * 10) / 10,
      etaSeconds: eta(waiting, perSecond),
    };
    if (organizationId === null) backlog.tenants = await this.#deps.queues.tenantBacklog(QUEUES.notificationSend, TOP_TENANTS);
    return backlog;
  }
}
