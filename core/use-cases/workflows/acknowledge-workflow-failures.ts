import * as v from 'valibot';
import type { Clock } from '../../ports/clock.ts';
import type { Storage } from '../../ports/storage.ts';
import { parseInput } from '../../validation.ts';
import { failureAlert, type WorkflowFailureAlert } from './get-workflow-failure-alert.ts';

export const AcknowledgeWorkflowFailuresInput = v.object({
  through: v.optional(v.pipe(v.string('must be a string'), v.isoTimestamp('must be an ISO 8601 date-time with a time zone, e.g. 2026-11-01T00:00:00Z'),
    v.transform((s) => new Date(s)), v.description('Acknowledge the failures up to this time (default: now; a later time counts as now). The dashboard sends the alert\'s latestFailedAt, so a failure that came after the page was drawn still alerts'))),
});

/**
 * POST /workflow-runs/failure-alert/acknowledge: clears the failed-run alert for the whole organization up to
 * `through` (never moves back: an older time keeps the stored one). Answers the alert as it is now.
 * Errors: VALIDATION_ERROR.
 */
export class AcknowledgeWorkflowFailures {
  readonly #deps: { storage: Pick<Storage, 'workflows'>; clock: Clock };
  constructor(deps: { storage: Pick<Storage, 'workflows'>; clock: Clock }) { this.#deps = deps; }

  async execute(scope: { organizationId: string; userId: string | null }, body: unknown): Promise<WorkflowFailureAlert> {
    const input = parseInput(AcknowledgeWorkflowFailuresInput, body ?? {});
    const now = this.#deps.clock.now();
    const through = input.through && input.through < now ? input.through : now;
    const { workflows } = this.#deps.storage;
    const ack = await workflows.acknowledgeFailures({ organizationId: scope.organizationId, through, userId: scope.userId, at: now });
    return failureAlert(workflows, scope.organizationId, now, ack);
  }
}
