import * as v from 'valibot';
import type { WorkflowRun } from '../../domain/workflow.ts';
import type { Clock } from '../../ports/clock.ts';
import type { Storage } from '../../ports/storage.ts';
import { parseInput } from '../../validation.ts';
import { decodeKeysetCursor, encodeKeysetCursor } from '../../domain/keyset-cursor.ts';
import { withoutBlankValues } from '../compliance/page-query.ts';

export const FAILED_RUNS_PAGE = { default: 20, max: 100 } as const;
/** The default `since` of the list and the window of the dashboard's alert. */
export const FAILURE_ALERT_WINDOW_HOURS = 24;

export const ListFailedWorkflowRunsInput = v.object({
  status: v.pipe(v.picklist(['FAILED'], 'must be FAILED (the only status listed across events)'), v.description('FAILED: runs that gave up (required)')),
  since: v.optional(v.pipe(v.string('must be a string'), v.isoTimestamp('must be an ISO 8601 date-time with a time zone, e.g. 2026-11-01T00:00:00Z'),
    v.transform((s) => new Date(s)), v.description(`Runs that failed at or after this time (default: ${FAILURE_ALERT_WINDOW_HOURS} hours ago)`))),
  limit: v.optional(v.pipe(v.string('must be a whole number'), v.regex(/^\d{1,4}$/, 'must be a whole number'), v.transform(Number),
    v.minValue(1, 'must be at least 1'), v.maxValue(FAILED_RUNS_PAGE.max, `must be at most ${FAILED_RUNS_PAGE.max}`),
    v.description(`Runs per page, 1 to ${FAILED_RUNS_PAGE.max} (default ${FAILED_RUNS_PAGE.default})`)), String(FAILED_RUNS_PAGE.default)),
  cursor: v.optional(v.pipe(v.string('must be a string'), v.maxLength(500, 'is not a cursor from this API'), v.transform(decodeKeysetCursor),
    v.check((c) => c !== null, 'is not a cursor from this API'), v.description('The nextCursor of the previous page'))),
});

export interface FailedRunView {
  id: string;
  eventId: string;
  event: string;
  version: number;
  correlationKey: string | null;
  /** The index and type of the step that gave up. */
  failedStep: number;
  failedStepType: string | null;
  error: { code: string; message: string } | null;
  attempts: number;
  failedAt: string;
  createdAt: string;
}

export function failedRunView(run: WorkflowRun): FailedRunView {
  return {
    id: run.id, eventId: run.eventId, event: run.eventSlug, version: run.version, correlationKey: run.correlationKey,
    failedStep: run.cursor, failedStepType: run.steps[run.cursor]?.type ?? null, error: run.error, attempts: run.attempts,
    failedAt: run.updatedAt.toISOString(), createdAt: run.createdAt.toISOString(),
  };
}

/**
 * GET /workflow-runs?status=FAILED&since=: the organization's runs that gave up (docs/workflows.md, "Failed runs"),
 * the latest failure first, with the failed step and its error; a page of at most 100, `nextCursor` for the next
 * (older) page, null on the last. Errors: VALIDATION_ERROR.
 */
export class ListFailedWorkflowRuns {
  readonly #deps: { storage: Pick<Storage, 'workflows'>; clock: Clock };
  constructor(deps: { storage: Pick<Storage, 'workflows'>; clock: Clock }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }, query: unknown = {}) {
    const input = parseInput(ListFailedWorkflowRunsInput, withoutBlankValues(query));
    const since = input.since ?? new Date(this.#deps.clock.now().getTime() - FAILURE_ALERT_WINDOW_HOURS * 3_600_000);
    const runs = await this.#deps.storage.workflows.listFailedRuns(scope.organizationId, since, input.cursor ?? null, input.limit);
    const last = runs.at(-1);
    return { items: runs.map(failedRunView), since: since.toISOString(), limit: input.limit, nextCursor: runs.length === input.limit && last ? encodeKeysetCursor(last.updatedAt, last.id) : null };
  }
}
