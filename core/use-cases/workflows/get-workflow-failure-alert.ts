import type { Clock } from '../../ports/clock.ts';
import type { Storage } from '../../ports/storage.ts';
import type { FailureAcknowledgement } from '../../ports/workflow-repository.ts';
import { FAILURE_ALERT_WINDOW_HOURS } from './list-failed-workflow-runs.ts';

/** Failed runs counted at most (the banner then says "1,000 or more"). */
export const FAILURE_ALERT_COUNT_CAP = 1_000;

export interface WorkflowFailureAlert {
  windowHours: number;
  /** Failures after this time are alerted: the later of `windowHours` ago and the acknowledged time. */
  since: string;
  failedRuns: number;
  /** true when `failedRuns` reached the cap (there may be more). */
  capped: boolean;
  /** The latest failure alerted (null when none): what an acknowledgement of "these" sends as `through`. */
  latestFailedAt: string | null;
  acknowledged: { through: string; userId: string | null; at: string } | null;
}

export async function failureAlert(workflows: Storage['workflows'], organizationId: string, now: Date, ack: FailureAcknowledgement | null): Promise<WorkflowFailureAlert> {
  const windowStart = new Date(now.getTime() - FAILURE_ALERT_WINDOW_HOURS * 3_600_000);
  const since = ack && ack.through > windowStart ? ack.through : windowStart;
  const failedRuns = await workflows.countFailedRuns(organizationId, since, FAILURE_ALERT_COUNT_CAP);
  const latest = failedRuns > 0 ? (await workflows.listFailedRuns(organizationId, since, null, 1))[0] : undefined;
  return {
    windowHours: FAILURE_ALERT_WINDOW_HOURS, since: since.toISOString(), failedRuns, capped: failedRuns >= FAILURE_ALERT_COUNT_CAP,
    latestFailedAt: latest?.updatedAt.toISOString() ?? null,
    acknowledged: ack ? { through: ack.through.toISOString(), userId: ack.userId, at: ack.at.toISOString() } : null,
  };
}

/**
 * GET /workflow-runs/failure-alert: the dashboard's alert of runs that gave up (docs/workflows.md, "Failed runs"):
 * how many failed in the last 24 hours and after the organization's acknowledgement. Per organization: one
 * member's acknowledgement clears the alert for every member.
 */
export class GetWorkflowFailureAlert {
  readonly #deps: { storage: Pick<Storage, 'workflows'>; clock: Clock };
  constructor(deps: { storage: Pick<Storage, 'workflows'>; clock: Clock }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }): Promise<WorkflowFailureAlert> {
    const { workflows } = this.#deps.storage;
    const ack = await workflows.findFailureAcknowledgement(scope.organizationId);
    return failureAlert(workflows, scope.organizationId, this.#deps.clock.now(), ack);
  }
}
