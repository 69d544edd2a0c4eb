import type { GetWorkflow } from '../../../core/use-cases/workflows/get-workflow.ts';
import type { GetFanOut } from '../../../core/use-cases/workflows/get-fan-out.ts';
import type { GetWorkflowRun } from '../../../core/use-cases/workflows/get-workflow-run.ts';
import { ListWorkflowRunsInput, MAX_RUNS_LISTED, type ListWorkflowRuns } from '../../../core/use-cases/workflows/list-workflow-runs.ts';
import type { PutWorkflow } from '../../../core/use-cases/workflows/put-workflow.ts';
import { PutWorkflowInput } from '../../../core/use-cases/workflows/workflow-schemas.ts';
import { AcknowledgeWorkflowFailuresInput, type AcknowledgeWorkflowFailures } from '../../../core/use-cases/workflows/acknowledge-workflow-failures.ts';
import type { GetWorkflowFailureAlert } from '../../../core/use-cases/workflows/get-workflow-failure-alert.ts';
import { FAILED_RUNS_PAGE, ListFailedWorkflowRunsInput, type ListFailedWorkflowRuns } from '../../../core/use-cases/workflows/list-failed-workflow-runs.ts';
import { ok, requireMember, requireTenant, type RouteDefinition } from '../route.ts';

export interface WorkflowRouteDeps {
  putWorkflow: PutWorkflow;
  getWorkflow: GetWorkflow;
  getWorkflowRun: GetWorkflowRun;
  listWorkflowRuns: ListWorkflowRuns;
  listFailedWorkflowRuns: ListFailedWorkflowRuns;
  getWorkflowFailureAlert: GetWorkflowFailureAlert;
  acknowledgeWorkflowFailures: AcknowledgeWorkflowFailures;
  getFanOut: GetFanOut;
}

const DENIED = { 401: 'UNAUTHORIZED (API keys are not accepted here)', 403: 'FORBIDDEN (not a member, or the role lacks the permission)' };

/** Workflows of notification events and their runs (docs/workflows.md). Triggers stay POST /events/trigger. */
export function workflowRoutes(deps: WorkflowRouteDeps): RouteDefinition[] {
  return [
    {
      method: 'PUT', path: '/events/:id/workflow', tag: 'Workflows', summary: 'Define the event\'s workflow: a new version of its step list',
      auth: 'tenant', permission: 'events:write', body: PutWorkflowInput,
      responses: { 200: 'The new version', 400: 'VALIDATION_ERROR (a bad step, a limit exceeded, a goTo backwards, an unknown template)', ...DENIED,
        404: 'NOT_FOUND (unknown event, or an event of another organization)', 409: 'CONFLICT (a concurrent PUT took the version number: retry)' },
      handler: async (input) => ok(await deps.putWorkflow.execute(requireTenant(input), input.params['id'] ?? '', input.body)),
    },
    {
      method: 'GET', path: '/events/:id/workflow', tag: 'Workflows', summary: 'The event\'s workflow (latest version; the implicit one-step workflow when none was defined)',
      auth: 'tenant', permission: 'events:read',
      responses: { 200: 'The workflow with `versions` (every version number, newest first)', 400: 'ORGANIZATION_REQUIRED', ...DENIED, 404: 'NOT_FOUND' },
      handler: async (input) => ok(await deps.getWorkflow.execute(requireTenant(input), input.params['id'] ?? '')),
    },
    {
      method: 'GET', path: '/events/:id/workflow/runs', tag: 'Workflows', summary: 'The event\'s most recent workflow runs, newest first',
      auth: 'tenant', permission: 'events:read', query: ListWorkflowRunsInput,
      responses: { 200: `Runs (at most ${MAX_RUNS_LISTED}) with status and cursor`, 400: 'VALIDATION_ERROR (limit) or ORGANIZATION_REQUIRED', ...DENIED, 404: 'NOT_FOUND' },
      handler: async (input) => ok(await deps.listWorkflowRuns.execute(requireTenant(input), input.params['id'] ?? '', input.query)),
    },
    {
      method: 'GET', path: '/workflow-runs', tag: 'Workflows', summary: 'Runs that gave up (status=FAILED), the latest failure first, with the failed step and its error (cursor paged)',
      auth: 'tenant-or-api-key', permission: 'events:read', apiKeyScope: 'events:read', query: ListFailedWorkflowRunsInput,
      responses: { 200: `{ items, since, limit, nextCursor }: at most ${FAILED_RUNS_PAGE.max} runs per page`, 400: 'VALIDATION_ERROR (status, since, limit, cursor) or ORGANIZATION_REQUIRED',
        401: 'UNAUTHORIZED', 403: 'FORBIDDEN (role lacks events:read, or the API key lacks the scope)' },
      handler: async (input) => ok(await deps.listFailedWorkflowRuns.execute(requireTenant(input), input.query)),
    },
    {
      method: 'GET', path: '/workflow-runs/failure-alert', tag: 'Workflows', summary: 'The dashboard\'s alert: runs that failed in the last 24 hours and after the organization\'s acknowledgement',
      auth: 'tenant', permission: 'events:read',
      responses: { 200: '{ windowHours, since, failedRuns, capped, latestFailedAt, acknowledged }', 400: 'ORGANIZATION_REQUIRED', ...DENIED },
      handler: async (input) => ok(await deps.getWorkflowFailureAlert.execute(requireTenant(input))),
    },
    {
      method: 'POST', path: '/workflow-runs/failure-alert/acknowledge', tag: 'Workflows', summary: 'Acknowledge the failed runs up to a time: clears the alert for every member of the organization',
      auth: 'tenant', permission: 'events:write', body: AcknowledgeWorkflowFailuresInput,
      responses: { 200: 'The alert after the acknowledgement', 400: 'VALIDATION_ERROR (through) or ORGANIZATION_REQUIRED', ...DENIED },
      handler: async (input) => ok(await deps.acknowledgeWorkflowFailures.execute(requireMember(input), input.body)),
    },
    {
      method: 'GET', path: '/workflow-runs/:id', tag: 'Workflows', summary: 'One workflow run: its timeline (steps, waits, outcomes, messages, cost)',
      auth: 'tenant-or-api-key', permission: 'events:read', apiKeyScope: 'events:read',
      responses: { 200: 'The run with its timeline', 400: 'ORGANIZATION_REQUIRED', 401: 'UNAUTHORIZED', 403: 'FORBIDDEN (role lacks events:read, or the API key lacks the scope)', 404: 'NOT_FOUND (unknown id, or a run of another organization)' },
      handler: async (input) => ok(await deps.getWorkflowRun.execute(requireTenant(input), input.params['id'] ?? '')),
    },
    {
      method: 'GET', path: '/fan-outs/:id', tag: 'Workflows', summary: 'One fan-out (a trigger to a segment or topic): status, counts and progress',
      auth: 'tenant-or-api-key', permission: 'events:read', apiKeyScope: 'events:read',
      responses: { 200: 'The fan-out: status, total, started, skipped and progress', 400: 'ORGANIZATION_REQUIRED', 401: 'UNAUTHORIZED', 403: 'FORBIDDEN (role lacks events:read, or the API key lacks the scope)', 404: 'NOT_FOUND (unknown id, or a fan-out of another organization)' },
      handler: async (input) => ok(await deps.getFanOut.execute(requireTenant(input), input.params['id'] ?? '')),
    },
  ];
}
