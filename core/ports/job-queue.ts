import type { DeliveryLane } from '../domain/delivery-lane.ts';

export const QUEUES = {
  /** Message delivery; reported by GET /health as workers.notificationSend. */
  notificationSend: 'notification-send',
  emailSend: 'email-send',
  /** Periodic housekeeping (expired rate-limit windows ...), scheduled by the worker. */
  maintenance: 'maintenance',
  /** Periodic real health checks of every active provider. */
  providerHealth: 'provider-health',
  /** Periodic status polling of vendors without delivery callbacks (Hubtel, mNotify). */
  deliveryStatusPoll: 'delivery-status-poll',
  /** Fan-out of a recorded outbound event (core/ports/outbound-event-repository.ts) to webhook endpoints, with their first attempts. */
  webhookDispatch: 'webhook-dispatch',
  /** A retry or replay of one webhook delivery ({ deliveryId, organizationId }); each next retry is scheduled by the handler itself. */
  webhookDeliver: 'webhook-deliver',
  /** One email to the owners per low-balance crossing, enqueued by the send path with the debit. */
  lowBalanceAlert: 'low-balance-alert',
  /** Monthly wallet statements (invoices), scheduled by the worker on the 1st. */
  monthlyStatements: 'monthly-statements',
  /** Next step of an event trigger after its message failed (fallback channel or retry), core/use-cases/events/trigger-steps.ts. */
  triggerFallback: 'trigger-fallback',
  /** A multi-channel verification's next channel when its passcode was not delivered in time (core/use-cases/verify/advance-verification.ts). */
  verifyFallback: 'verify-fallback',
  /** An event trigger's IN_APP message still unread after the event's unreadAfterMinutes: `{ triggerId, messageId }` (core/use-cases/events/advance-unread-trigger.ts). */
  inboxUnreadFallback: 'inbox-unread-fallback',
  /** CSV contact imports: `{ importId }` (core/use-cases/contacts/process-contact-import.ts). */
  contactImport: 'contact-import',
  /** Campaign start and fan-out batches: `{ campaignId, organizationId }` (core/use-cases/campaigns/run-campaign.ts). */
  campaignRun: 'campaign-run',
  /** The next step of a workflow run: `{ runId }` (core/use-cases/workflows/run-workflow-step.ts); stale or repeated jobs do nothing. */
  workflowStep: 'workflow-step',
  /** A trigger to a segment or topic, streamed page by page: `{ fanOutId, organizationId }` (core/use-cases/workflows/run-fan-out.ts). */
  workflowFanOut: 'workflow-fan-out',
} as const;
export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

export interface EnqueueOptions {
  /** Delay before the job becomes available. */
  startAfterSeconds?: number;
  /**
   * The job's lane (core/domain/delivery-lane.ts): a runnable job of a higher lane is fetched before every
   * job of a lower lane, whenever each was enqueued. Kept by the job's retries. Absent: after every lane.
   */
  lane?: DeliveryLane;
  /**
   * Whose work it is (the organization id): within a lane, waiting tenants are served in turn (start-time
   * fair queueing), so a tenant with a large backlog gets its share, not all of it. Needs `lane`.
   */
  tenant?: string;
  /**
   * A delayed job that takes its tenant's fair-queueing tag now, as a runnable one would (a delivery
   * postponed by rate shaping: it keeps its place among the tenants), instead of the lane's floor.
   * A tenant's weight (TenantDeliveryLimits) is applied by the queue itself.
   */
  fairTag?: boolean;
}

/**
 * Durable background jobs (pg-boss in production). Jobs carry ids only; the database row is the
 * source of truth. Inside `Storage.transaction` the enqueue commits or rolls back with the writes.
 */
export interface JobQueue {
  enqueue(queue: QueueName, data: Record<string, unknown>, options?: EnqueueOptions): Promise<void>;
  /** Enqueues many jobs in one round trip (bulk sends). */
  enqueueMany(queue: QueueName, jobs: ReadonlyArray<{ data: Record<string, unknown>; options?: EnqueueOptions }>): Promise<void>;
}

export interface QueueCounts {
  waiting: number;
  active: number;
  completed: number;
  failed: number;
  workers: number;
}

/** Runnable jobs of one lane waiting in a queue (delayed jobs not counted). */
export interface LaneBacklog {
  lane: DeliveryLane;
  waiting: number;
  /** Seconds the oldest of them has been runnable; 0 when none waits. */
  oldestWaitingSeconds: number;
  /** Jobs of the lane (of the tenant, when asked for one) that workers completed in the last 60 seconds: the drain rate the ETA is taken from. */
  drainedLastMinute: number;
  /** Seconds those completions span (from the first of them to now; 1-60, 60 when there were none): the pace is drained / span, so a drain that began 10 s ago is not averaged over a minute. */
  drainSpanSeconds: number;
}

/** Organizations with the most runnable delivery jobs waiting (admin view), most first. */
export interface TenantBacklog {
  organizationId: string;
  waiting: number;
  oldestWaitingSeconds: number;
}

/** Read-only view of queue depth for health and metrics. */
export interface QueueMonitor {
  counts(queue: QueueName): Promise<QueueCounts>;
  /** Per lane (every lane, zeros included); of one tenant's jobs only when `tenant` is given. */
  laneBacklog(queue: QueueName, tenant?: string): Promise<LaneBacklog[]>;
  /** The `limit` tenants (at most 100) with the most runnable jobs waiting, most first; jobs without a tenant are left out. */
  tenantBacklog(queue: QueueName, limit: number): Promise<TenantBacklog[]>;
}
