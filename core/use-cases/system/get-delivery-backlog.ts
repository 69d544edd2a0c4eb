import { QUEUES, type LaneBacklog, type QueueMonitor } from '../../ports/job-queue.ts';

export interface DeliveryBacklog {
  /** Runnable delivery jobs waiting per lane (OTP, TRANSACTIONAL, MARKETING), and the oldest one's wait in seconds. */
  lanes: LaneBacklog[];
  waiting: number;
}

/**
 * The delivery queue's backlog per lane (docs/adr/0036-delivery-lanes-and-fair-queueing.md): one
 * organization's own (a tenant sees its backlog), or every organization's (platform administrators).
 * Scheduled and delayed messages are not in it until they are due.
 */
export class GetDeliveryBacklog {
  readonly #deps: { queues: QueueMonitor };
  constructor(deps: { queues: QueueMonitor }) { this.#deps = deps; }

  async execute(organizationId: string | null): Promise<DeliveryBacklog> {
    const lanes = await this.#deps.queues.laneBacklog(QUEUES.notificationSend, organizationId ?? undefined);
    return { lanes, waiting: lanes.reduce((sum, l) => sum + l.waiting, 0) };
  }
}
