import { DELIVERY_LANES, type DeliveryLane } from '../../core/domain/delivery-lane.ts';
import type { EnqueueOptions, JobQueue, LaneBacklog, QueueCounts, TenantBacklog, QueueMonitor, QueueName } from '../../core/ports/job-queue.ts';
import { delayedPriority, laneBand, laneOfPriority, lanePriority, nextTags, regularTop, startsSparse, tagOf } from '../queue/lane-priority.ts';
import type { MemoryJob, MemoryState } from './memory-state.ts';

/**
 * Records enqueued jobs; tests drain them with `take` (in enqueue order) or `fetch` (in the order a worker
 * gets them: lanes, then fair shares between tenants, as pg-boss does with the same priorities).
 */
export class InMemoryJobQueue implements JobQueue, QueueMonitor {
  readonly #state: MemoryState;
  constructor(state: MemoryState) { this.#state = state; }

  async enqueue(queue: QueueName, data: Record<string, unknown>, options: EnqueueOptions = {}): Promise<void> {
    await this.enqueueMany(queue, [{ data, options }]);
  }

  async enqueueMany(queue: QueueName, jobs: ReadonlyArray<{ data: Record<string, unknown>; options?: EnqueueOptions }>): Promise<void> {
    const clocks = new Map<DeliveryLane, number>();
    for (const { data, options = {} } of jobs) {
      const job: MemoryJob = { queue, data: structuredClone(data), startAfterSeconds: options.startAfterSeconds ?? 0 };
      if (options.lane) this.#state.jobLanes.set(job, { priority: this.#priority(queue, options.lane, options, clocks), tenant: options.tenant ?? null });
      this.#state.jobs.push(job);
    }
  }

  /** Removes and returns the queued jobs of one queue. */
  take(queue: QueueName): MemoryJob[] {
    const taken = this.#state.jobs.filter((j) => j.queue === queue);
    this.#state.jobs = this.#state.jobs.filter((j) => j.queue !== queue);
    for (const job of taken) this.#state.jobLanes.delete(job);
    return taken;
  }

  /** Removes and returns up to `batchSize` runnable jobs of one queue in fetch order: `priority desc`, then enqueue order. */
  fetch(queue: QueueName, batchSize: number): MemoryJob[] {
    const runnable = this.#state.jobs.map((job, order) => ({ job, order })).filter(({ job }) => job.queue === queue && job.startAfterSeconds === 0);
    runnable.sort((a, b) => this.#priorityOf(b.job) - this.#priorityOf(a.job) || a.order - b.order);
    const taken = new Set(runnable.slice(0, batchSize).map(({ job }) => job));
    this.#state.jobs = this.#state.jobs.filter((j) => !taken.has(j));
    const now = Date.now();
    for (const job of taken) {
      const meta = this.#state.jobLanes.get(job);
      const lane = meta ? laneOfPriority(meta.priority) : null;
      if (lane) this.#state.drainedJobs.push({ queue, lane, tenant: meta!.tenant, atMs: now });
      this.#state.jobLanes.delete(job);
    }
    this.#state.drainedJobs = this.#state.drainedJobs.filter((d) => now - d.atMs <= 60_000);
    return [...taken];
  }

  async counts(queue: QueueName): Promise<QueueCounts> {
    return { waiting: this.#state.jobs.filter((j) => j.queue === queue).length, active: 0, completed: 0, failed: 0, workers: 0 };
  }

  async laneBacklog(queue: QueueName, tenant?: string): Promise<LaneBacklog[]> {
    const lanes = this.#state.jobs.filter((j) => j.queue === queue && this.#waiting(j)).flatMap((j) => {
      const meta = this.#state.jobLanes.get(j);
      return meta && (tenant === undefined || meta.tenant === tenant) ? [laneOfPriority(meta.priority)] : [];
    });
    const drained = this.#state.drainedJobs.filter((d) => d.queue === queue && Date.now() - d.atMs <= 60_000 && (tenant === undefined || d.tenant === tenant));
    return DELIVERY_LANES.map((lane) => {
      const ofLane = drained.filter((d) => d.lane === lane);
      const first = Math.min(...ofLane.map((d) => d.atMs));
      return {
        lane, waiting: lanes.filter((l) => l === lane).length, oldestWaitingSeconds: 0, drainedLastMinute: ofLane.length,
        drainSpanSeconds: ofLane.length === 0 ? 60 : Math.min(60, Math.max(1, (Date.now() - first) / 1000)),
      };
    });
  }

  async tenantBacklog(queue: QueueName, limit: number): Promise<TenantBacklog[]> {
    const waiting = new Map<string, number>();
    for (const job of this.#state.jobs) {
      const tenant = this.#state.jobLanes.get(job)?.tenant;
      if (job.queue === queue && this.#waiting(job) && tenant) waiting.set(tenant, (waiting.get(tenant) ?? 0) + 1);
    }
    return [...waiting].map(([organizationId, n]) => ({ organizationId, waiting: n, oldestWaitingSeconds: 0 }))
      .sort((a, b) => b.waiting - a.waiting || a.organizationId.localeCompare(b.organizationId)).slice(0, Math.max(1, Math.min(100, Math.floor(limit))));
  }

  /** Runnable now, or postponed with a fair tag (paced, as pg-boss-job-queue.ts counts it); a delayed job at its band's floor is not waiting. */
  #waiting(job: MemoryJob): boolean {
    if (job.startAfterSeconds === 0) return true;
    const priority = this.#priorityOf(job);
    const lane = laneOfPriority(priority);
    return lane !== null && priority > laneBand(lane).low;
  }

  #priorityOf(job: MemoryJob): number {
    return this.#state.jobLanes.get(job)?.priority ?? 0;
  }

  /** The same rule as pg-lane-clock.ts: the lane's clock is the round of its highest waiting regular job (else sparse one), else the largest tag given. */
  #priority(queue: QueueName, lane: DeliveryLane, options: EnqueueOptions, clocks: Map<DeliveryLane, number>): number {
    if (options.startAfterSeconds && !options.fairTag) return delayedPriority(lane);
    if (!clocks.has(lane)) {
      const { low, high } = laneBand(lane);
      const waiting = this.#state.jobs.filter((j) => j.queue === queue && j.startAfterSeconds === 0).map((j) => this.#priorityOf(j)).filter((p) => p > low && p <= high); // the floor carries no tag (pg-lane-clock.ts)
      const given = [...this.#state.fairTags].filter(([key]) => key.startsWith(`${lane} `)).map(([, tag]) => tag);
      const regular = waiting.filter((p) => p <= regularTop(lane));
      const head = regular.length > 0 ? regular : waiting; // the backlogs' round; a waiting sparse job's only when none waits
      clocks.set(lane, head.length > 0 ? tagOf(lane, Math.max(...head)) : Math.max(0, ...given));
    }
    const clock = clocks.get(lane)!;
    if (!options.tenant) return lanePriority(lane, clock + 1);
    const key = `${lane} ${options.tenant}`;
    const [tag] = nextTags(this.#state.fairTags.get(key), clock, 1, this.#state.deliveryLimits.get(options.tenant)?.weight ?? 1);
    this.#state.fairTags.set(key, tag!);
    return lanePriority(lane, tag!, startsSparse(tag!, clock));
  }
}
