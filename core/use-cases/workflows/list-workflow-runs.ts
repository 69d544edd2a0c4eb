import * as v from 'valibot';
import { AppError } from '../../errors.ts';
import type { Storage } from '../../ports/storage.ts';
import { parseInput } from '../../validation.ts';
import { runView, type RunView } from './workflow-view.ts';

export const MAX_RUNS_LISTED = 100;

export const ListWorkflowRunsInput = v.object({
  limit: v.optional(v.pipe(v.string('must be a whole number'), v.description(`Runs to list, 1 to ${MAX_RUNS_LISTED} (default 20)`),
    v.regex(/^\d{1,9}$/, 'must be a whole number'), v.transform(Number),
    v.minValue(1, 'must be at least 1'), v.maxValue(MAX_RUNS_LISTED, `must be at most ${MAX_RUNS_LISTED}`)), '20'),
});

/** GET /events/{id}/workflow/runs?limit=: the event's most recent runs, newest first, without their timelines (GET /workflow-runs/{id} has those). */
export class ListWorkflowRuns {
  readonly #deps: { storage: Storage };
  constructor(deps: { storage: Storage }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }, eventId: string, query: unknown): Promise<RunView[]> {
    const { limit } = parseInput(ListWorkflowRunsInput, query);
    const { storage } = this.#deps;
    const event = eventId.length <= 64 ? await storage.notificationEvents.findById(scope.organizationId, eventId) : null;
    if (!event) throw new AppError('NOT_FOUND', 'Notification event not found');
    const runs = await storage.workflows.listRuns(scope.organizationId, event.id, limit);
    return runs.map((run) => runView(run, [], new Map()));
  }
}
