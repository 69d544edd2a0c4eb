import * as v from 'valibot';
import { CreateEventInput, type CreateEvent } from '../../../core/use-cases/events/create-event.ts';
import type { GetEvent } from '../../../core/use-cases/events/get-event.ts';
import type { GetTrigger } from '../../../core/use-cases/events/get-trigger.ts';
import { MAX_EVENTS_LISTED, type ListEvents } from '../../../core/use-cases/events/list-events.ts';
import { ListEventTriggersInput, MAX_TRIGGERS_LISTED, type ListEventTriggers } from '../../../core/use-cases/events/list-event-triggers.ts';
import { TriggerEventInput, type TriggerEvent } from '../../../core/use-cases/events/trigger-event.ts';
import { UpdateEventInput, type UpdateEvent } from '../../../core/use-cases/events/update-event.ts';
import { FanOutTriggerInput, isFanOutBody, type StartFanOut } from '../../../core/use-cases/workflows/start-fan-out.ts';
import type { StartWorkflowRun } from '../../../core/use-cases/workflows/start-workflow-run.ts';
import { ok, requireTenant, type RouteDefinition } from '../route.ts';
import { sendContext } from './message-routes.ts';

export interface EventRouteDeps {
  createEvent: CreateEvent;
  listEvents: ListEvents;
  getEvent: GetEvent;
  updateEvent: UpdateEvent;
  triggerEvent: TriggerEvent;
  getTrigger: GetTrigger;
  listEventTriggers: ListEventTriggers;
  /** Starts the run of an event with a workflow (docs/workflows.md); events without one are sent by triggerEvent. */
  startWorkflowRun?: StartWorkflowRun;
  /** A trigger to a segment or topic (docs/workflows.md, "Fan-out"): answered 202 with the fan-out; the worker streams it. */
  startFanOut?: StartFanOut;
  onSent?: (channel: string, status: string) => void;
}

const DENIED = {
  401: 'UNAUTHORIZED (API keys are not accepted here)', 403: 'FORBIDDEN (not a member, or the role lacks the permission)',
};

/** Notification events (docs/events.md). */
export function eventRoutes(deps: EventRouteDeps): RouteDefinition[] {
  return [
    {
      method: 'GET', path: '/events', tag: 'Events', summary: 'The organization\'s notification events with their linked templates, newest first',
      auth: 'tenant-or-api-key', permission: 'events:read', apiKeyScope: 'events:read',
      responses: { 200: `Events (at most ${MAX_EVENTS_LISTED}), newest first, each with \`template\` (or null)`, 400: 'ORGANIZATION_REQUIRED',
        401: 'UNAUTHORIZED', 403: 'FORBIDDEN (role lacks events:read, or the API key lacks the scope)' },
      handler: async (input) => ok(await deps.listEvents.execute(requireTenant(input))),
    },
    {
      method: 'POST', path: '/events', tag: 'Events', summary: 'Create a notification event',
      auth: 'tenant', permission: 'events:write', body: CreateEventInput,
      responses: { 201: 'The event with its linked template', 400: 'VALIDATION_ERROR (bad slug, unknown templateId, bad retryRules ...)', ...DENIED,
        409: 'SLUG_EXISTS' },
      handler: async (input) => ok(await deps.createEvent.execute(requireTenant(input), input.body), 201),
    },
    {
      method: 'POST', path: '/events/trigger', tag: 'Events', summary: 'Trigger a notification event by slug, to `to` or `contactId`, or to every contact of a `segmentId` or `topic` (fan-out)',
      auth: 'tenant-or-api-key', permission: 'events:trigger', apiKeyScope: 'events:trigger', body: v.union([TriggerEventInput, FanOutTriggerInput]),
      responses: {
        202: 'A fan-out (`fanOut: true`, body with `segmentId` or `topic`): id, status, total, started, skipped and progress; follow it with GET /fan-outs/{id}',
        201: 'The trigger: status, channel plan, steps and the delivery log of every message sent (fallbacks taken at send time included); '
          + 'for an event with a workflow, the run started (`workflowRun: true`, steps run in the worker) with the runs it cancelled or resumed',
        400: 'VALIDATION_ERROR (neither to nor contactId, a malformed to, a missing template variable, an event without template)',
        402: 'INSUFFICIENT_BALANCE', 404: 'NOT_FOUND (no event with this slug, an unknown contactId, or an unknown segmentId)',
        422: 'EVENT_INACTIVE, RECIPIENT_UNREACHABLE (no address for any of the event\'s channels), IDEMPOTENCY_KEY_REUSED (another body, or another kind of answer: trigger, run, fan-out), '
          + 'TEMPLATE_NOT_APPROVED or LIMIT_REACHED (a fan-out audience above the plan\'s bound)',
      },
      handler: async (input) => {
        if (deps.startFanOut && isFanOutBody(input.body)) {
          const started = await deps.startFanOut.execute(sendContext(input), input.body);
          if (started.replayed) input.koa.set('Idempotent-Replayed', 'true');
          return ok({ fanOut: true, ...started.fanOut }, 202);
        }
        const started = deps.startWorkflowRun ? await deps.startWorkflowRun.execute(sendContext(input), input.body) : null;
        if (started?.run) {
          if (started.replayed) input.koa.set('Idempotent-Replayed', 'true');
          return ok({ workflowRun: true, ...started.run, cancelled: started.cancelled, resumed: started.resumed }, 201);
        }
        const result = await deps.triggerEvent.execute(sendContext(input), input.body);
        if (result.replayed) input.koa.set('Idempotent-Replayed', 'true');
        else for (const log of result.trigger.deliveryLogs) deps.onSent?.(String(log['channel']), String(log['status']));
        return ok(result.trigger, 201);
      },
    },
    {
      method: 'GET', path: '/events/triggers/:id', tag: 'Events', summary: 'One event trigger: status, steps and delivery logs',
      auth: 'tenant', permission: 'events:read',
      responses: { 200: 'The trigger', 400: 'ORGANIZATION_REQUIRED', ...DENIED, 404: 'NOT_FOUND (unknown id, or a trigger of another organization)' },
      handler: async (input) => ok(await deps.getTrigger.execute(requireTenant(input), input.params['id'] ?? '')),
    },
    {
      method: 'GET', path: '/events/:id', tag: 'Events', summary: 'One notification event with its linked template',
      auth: 'tenant', permission: 'events:read',
      responses: { 200: 'The event', 400: 'ORGANIZATION_REQUIRED', ...DENIED, 404: 'NOT_FOUND (unknown id, or an event of another organization)' },
      handler: async (input) => ok(await deps.getEvent.execute(requireTenant(input), input.params['id'] ?? '')),
    },
    {
      method: 'GET', path: '/events/:id/triggers', tag: 'Events', summary: 'An event\'s most recent triggers, newest first',
      auth: 'tenant', permission: 'events:read', query: ListEventTriggersInput,
      responses: { 200: `Triggers (at most ${MAX_TRIGGERS_LISTED}) with status and current channel`, 400: 'VALIDATION_ERROR (limit) or ORGANIZATION_REQUIRED',
        ...DENIED, 404: 'NOT_FOUND (unknown event, or an event of another organization)' },
      handler: async (input) => ok(await deps.listEventTriggers.execute(requireTenant(input), input.params['id'] ?? '', input.query)),
    },
    {
      method: 'PATCH', path: '/events/:id', tag: 'Events', summary: 'Update a notification event (any field; isActive reactivates or deactivates)',
      auth: 'tenant', permission: 'events:write', body: UpdateEventInput,
      responses: { 200: 'The updated event', 400: 'VALIDATION_ERROR', ...DENIED, 404: 'NOT_FOUND', 409: 'SLUG_EXISTS' },
      handler: async (input) => ok(await deps.updateEvent.execute(requireTenant(input), input.params['id'] ?? '', input.body)),
    },
    {
      method: 'POST', path: '/events/:id/deactivate', tag: 'Events', summary: 'Deactivate a notification event (kept with its history; triggers answer EVENT_INACTIVE)',
      auth: 'tenant', permission: 'events:write',
      responses: { 200: 'The event, isActive false', 400: 'ORGANIZATION_REQUIRED', ...DENIED, 404: 'NOT_FOUND' },
      handler: async (input) => ok(await deps.updateEvent.deactivate(requireTenant(input), input.params['id'] ?? '')),
    },
  ];
}
