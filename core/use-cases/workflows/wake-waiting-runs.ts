import { QUEUES } from '../../ports/job-queue.ts';
import type { Repositories } from '../../ports/storage.ts';

/** Runs one recorded event may wake at most (one subscriber, one phone, one trigger: normally one run). */
const WAKE_LIMIT = 1_000;

/**
 * Called where a read, a reply or a click is recorded, inside that transaction (docs/workflows.md, "wait"):
 * locks the wait keys (so a wait step checking for the event at the same moment either sees it or is seen
 * here), finds the organization's runs WAITING with one of the keys, and enqueues a `workflow-step` job for
 * each, committed with the event. The job re-checks the event itself under the run's lock: a wake-up is only
 * "look again", so a second event, a repeated job or the timeout racing it change nothing twice
 * (docs/adr/0044-workflow-exactly-once.md). Answers the run ids woken.
 */
export async function wakeWaitingRuns(tx: Repositories, organizationId: string, keys: readonly string[]): Promise<string[]> {
  if (keys.length === 0) return [];
  await tx.workflows.lockWaitKeys(organizationId, keys);
  const runIds = await tx.workflows.findWaiting(organizationId, keys, WAKE_LIMIT);
  if (runIds.length > 0) await tx.jobs.enqueueMany(QUEUES.workflowStep, runIds.map((runId) => ({ data: { runId } })));
  return runIds;
}
