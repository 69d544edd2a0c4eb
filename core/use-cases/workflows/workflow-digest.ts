import { recipientKey, type WorkflowStep } from '../../domain/workflow.ts';
import { QUEUES } from '../../ports/job-queue.ts';
import { finishStep, type StepDecision, type StepEnv } from './workflow-step-kinds.ts';

type DigestStep = Extract<WorkflowStep, { type: 'digest' }>;

/** Triggers of one event step, recipient and key (the value of `keyVariable`) share a bucket. */
export function bucketKeyOf(env: Pick<StepEnv, 'run' | 'index'>, step: DigestStep): string {
  const key = step.keyVariable ? env.run.request.variables[step.keyVariable] ?? '' : '';
  return `${env.run.eventId}:${env.index}:${recipientKey(env.run.request)}:${key}`;
}

/**
 * A digest step (docs/workflows.md, "Digest"). Arriving, under the key's lock:
 * - with `lookBack` and no bucket for the key in the last window, the run goes on at once with itself as
 *   the only item, leaving a FLUSHED marker so that the next triggers of the window are collected;
 * - otherwise it joins the key's OPEN bucket (its run then ends, DIGESTED into the bucket's owner), or opens
 *   one and becomes its owner: it waits until `flushAt`, or until a joiner fills `maxItems` and wakes it.
 * The owner's flush moves the bucket OPEN -> FLUSHED once (flushDigest) and carries the items to the next
 * steps (`digestItems`, `digestCount`); a repeated or concurrent flush finds the bucket FLUSHED and sends nothing.
 */
export async function digestStep(env: StepEnv, step: DigestStep): Promise<StepDecision> {
  const { tx, run, now } = env;
  const org = run.organizationId;
  if (env.existing) return flush(env, step);
  const key = bucketKeyOf(env, step);
  const latest = await tx.workflows.lockLatestBucket(org, key);
  const windowMs = step.windowSeconds * 1000;
  if (step.lookBack && (!latest || (latest.status === 'FLUSHED' && latest.createdAt.getTime() <= now.getTime() - windowMs))) {
    await tx.workflows.openBucket({ id: env.ids.next(), organizationId: org, bucketKey: key, ownerRunId: run.id, status: 'FLUSHED', itemCount: 1, flushAt: now, createdAt: now });
    await finishStep(env, 'digest', 'PASSED', { lookBack: true });
    return { next: env.index + 1, patch: { digest: { count: 1, items: [run.request.variables] } } };
  }
  if (latest?.status === 'OPEN' && latest.itemCount < step.maxItems) {
    const count = await tx.workflows.addDigestItem(org, latest.id, run.id, run.request.variables, now);
    if (count >= step.maxItems) await tx.jobs.enqueue(QUEUES.workflowStep, { runId: latest.ownerRunId });
    await finishStep(env, 'digest', 'DIGESTED', { bucketId: latest.id, into: latest.ownerRunId, position: count });
    return { end: 'COMPLETED' };
  }
  const bucketId = env.ids.next();
  const flushAt = new Date(now.getTime() + windowMs);
  await tx.workflows.openBucket({ id: bucketId, organizationId: org, bucketKey: key, ownerRunId: run.id, status: 'OPEN', itemCount: 0, flushAt, createdAt: now });
  await tx.workflows.addDigestItem(org, bucketId, run.id, run.request.variables, now);
  await tx.workflows.claimStep({
    runId: run.id, organizationId: org, index: env.index, type: 'digest', status: 'WAITING', outcome: 'COLLECTING', messageId: null, triggerId: null,
    resumeAt: flushAt, detail: { bucketId, maxItems: step.maxItems }, startedAt: now, finishedAt: null,
  });
  await tx.jobs.enqueue(QUEUES.workflowStep, { runId: run.id }, { startAfterSeconds: step.windowSeconds });
  return { wait: flushAt };
}

async function flush(env: StepEnv, step: DigestStep): Promise<StepDecision> {
  const { tx, run, now } = env;
  const bucketId = String(env.existing?.detail['bucketId'] ?? '');
  const latest = await tx.workflows.lockLatestBucket(run.organizationId, bucketKeyOf(env, step));
  // Woken early (a joiner filled the bucket, or a retried job): flush only when due or full.
  const full = latest?.id === bucketId ? latest.itemCount >= step.maxItems : true;
  const dueAt = env.existing?.resumeAt?.getTime() ?? 0;
  if (!full && dueAt > now.getTime() + 500) {
    await tx.jobs.enqueue(QUEUES.workflowStep, { runId: run.id }, { startAfterSeconds: Math.ceil((dueAt - now.getTime()) / 1000) });
    return { wait: new Date(dueAt) };
  }
  const { flushed, items } = await tx.workflows.flushDigest(run.organizationId, bucketId, step.maxItems);
  if (!flushed) {
    await finishStep(env, 'digest', 'ALREADY_FLUSHED');
    return { end: 'COMPLETED' };
  }
  await finishStep(env, 'digest', 'FLUSHED', { count: items.length });
  return { next: env.index + 1, patch: { digest: { count: items.length, items } } };
}
