import type { WorkflowRun, WorkflowStep, WorkflowStepRun } from '../../domain/workflow.ts';
import type { Clock } from '../../ports/clock.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import { QUEUES, type EnqueueOptions } from '../../ports/job-queue.ts';
import type { Storage } from '../../ports/storage.ts';
import type { DigestBucket, DigestItem } from '../../ports/workflow-repository.ts';
import { bucketKeyOf } from './workflow-digest.ts';

type DigestStep = Extract<WorkflowStep, { type: 'digest' }>;

export interface JoinDigestsInBatchDeps { storage: Storage; clock: Clock; ids: IdGenerator }

/** One organization's share of the batch: what the transaction writes for it. */
interface Plan {
  buckets: DigestBucket[];
  items: DigestItem[];
  grown: Map<string, number>;
  steps: WorkflowStepRun[];
  moves: Array<{ id: string; status: 'COMPLETED' | 'WAITING'; cursor: number }>;
}

const digestAt = (run: WorkflowRun): DigestStep | null => {
  const step = run.steps[run.cursor];
  return step?.type === 'digest' ? step : null;
};

/**
 * The batch path of digest steps (docs/adr/0044-workflow-exactly-once.md, "Digest joins in batches"): the runs
 * of a fetched `workflow-step` batch that arrive at a digest step join their buckets in one transaction and a
 * few statements, with the decisions of `digestStep` (workflow-digest.ts) taken in memory under the same locks:
 * the runs' rows (SKIP LOCKED: a run another job holds is left to it), then every key of the batch (one advisory
 * lock per key, in a fixed order). A run joins its key's OPEN bucket while it has room (then ends DIGESTED), or
 * opens the next one and owns it (WAITING until the window ends, its job enqueued); a bucket filled to `maxItems`
 * wakes its owner. A key whose first run would go at once by look-back is left to the one-by-one path, as is
 * anything this path refuses (the transaction rolls back as a whole and the batch's jobs run one by one).
 * Answers the runs it took.
 */
export class JoinDigestsInBatch {
  readonly #deps: JoinDigestsInBatchDeps;
  constructor(deps: JoinDigestsInBatchDeps) { this.#deps = deps; }

  async execute(runIds: readonly string[]): Promise<Set<string>> {
    if (runIds.length < 2) return new Set();
    return this.#deps.storage.transaction(async (tx) => {
      const runs = (await tx.workflows.lockRunningRuns(runIds)).filter((r) => digestAt(r) !== null);
      const order = new Map<string, number>();
      runIds.forEach((id, i) => { if (!order.has(id)) order.set(id, i); });
      runs.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0)); // arrival order: the batch's
      const taken = new Set<string>();
      const jobs: Array<{ data: Record<string, unknown>; options?: EnqueueOptions }> = [];
      const now = this.#deps.clock.now();
      for (const [organizationId, orgRuns] of groupBy(runs, (r) => r.organizationId)) {
        const byKey = groupBy(orgRuns, (r) => bucketKeyOf({ run: r, index: r.cursor }, digestAt(r)!));
        const latest = await tx.workflows.lockLatestBuckets(organizationId, [...byKey.keys()]);
        const plan: Plan = { buckets: [], items: [], grown: new Map(), steps: [], moves: [] };
        for (const [key, group] of byKey) {
          const first = digestAt(group[0]!)!;
          const bucket = latest.get(key) ?? null;
          if (first.lookBack && (!bucket || (bucket.status === 'FLUSHED' && bucket.createdAt.getTime() <= now.getTime() - first.windowSeconds * 1000))) continue;
          this.#joinKey(plan, key, bucket, group, now, jobs);
          group.forEach((r) => taken.add(r.id));
        }
        await tx.workflows.writeDigestJoins(organizationId, { buckets: plan.buckets, items: plan.items, grown: [...plan.grown].map(([bucketId, added]) => ({ bucketId, added })) });
        await tx.workflows.claimSteps(plan.steps);
        await tx.workflows.moveRuns(organizationId, plan.moves, now);
      }
      if (jobs.length > 0) await tx.jobs.enqueueMany(QUEUES.workflowStep, jobs);
      return taken;
    });
  }

  /** One key's runs, in arrival order: each joins the open bucket while it has room, or opens (and owns) the next. */
  #joinKey(plan: Plan, key: string, latest: DigestBucket | null, group: WorkflowRun[], now: Date, jobs: Array<{ data: Record<string, unknown>; options?: EnqueueOptions }>): void {
    let bucket = latest;
    let opened = false;
    for (const run of group) {
      const step = digestAt(run)!;
      const base = { runId: run.id, organizationId: run.organizationId, index: run.cursor, type: 'digest' as const, messageId: null, triggerId: null, startedAt: now };
      plan.items.push({ bucketId: '', runId: run.id, variables: run.request.variables, at: now });
      const item = plan.items[plan.items.length - 1]!;
      if (bucket?.status === 'OPEN' && bucket.itemCount < step.maxItems) {
        bucket.itemCount += 1;
        item.bucketId = bucket.id;
        if (!opened) plan.grown.set(bucket.id, (plan.grown.get(bucket.id) ?? 0) + 1);
        if (bucket.itemCount >= step.maxItems) jobs.push({ data: { runId: bucket.ownerRunId } });
        plan.steps.push({ ...base, status: 'DONE', outcome: 'DIGESTED', resumeAt: null, detail: { bucketId: bucket.id, into: bucket.ownerRunId, position: bucket.itemCount }, finishedAt: now });
        plan.moves.push({ id: run.id, status: 'COMPLETED', cursor: run.steps.length });
        continue;
      }
      const flushAt = new Date(now.getTime() + step.windowSeconds * 1000);
      bucket = { id: this.#deps.ids.next(), organizationId: run.organizationId, bucketKey: key, ownerRunId: run.id, status: 'OPEN', itemCount: 1, flushAt, createdAt: now };
      opened = true;
      item.bucketId = bucket.id;
      plan.buckets.push(bucket); // its final itemCount is written with it
      plan.steps.push({ ...base, status: 'WAITING', outcome: 'COLLECTING', resumeAt: flushAt, detail: { bucketId: bucket.id, maxItems: step.maxItems }, finishedAt: null });
      plan.moves.push({ id: run.id, status: 'WAITING', cursor: run.cursor });
      jobs.push({ data: { runId: run.id }, options: { startAfterSeconds: step.windowSeconds } });
    }
  }
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item); else groups.set(k, [item]);
  }
  return groups;
}
