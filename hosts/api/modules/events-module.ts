import type { Container } from 'inversify';
import { CreateEvent } from '../../../core/use-cases/events/create-event.ts';
import { GetEvent } from '../../../core/use-cases/events/get-event.ts';
import { GetTrigger } from '../../../core/use-cases/events/get-trigger.ts';
import { ListEvents } from '../../../core/use-cases/events/list-events.ts';
import { ListEventTriggers } from '../../../core/use-cases/events/list-event-triggers.ts';
import { TriggerEvent } from '../../../core/use-cases/events/trigger-event.ts';
import { UpdateEvent } from '../../../core/use-cases/events/update-event.ts';
import { GetWorkflow } from '../../../core/use-cases/workflows/get-workflow.ts';
import { GetWorkflowRun } from '../../../core/use-cases/workflows/get-workflow-run.ts';
import { ListWorkflowRuns } from '../../../core/use-cases/workflows/list-workflow-runs.ts';
import { ListFailedWorkflowRuns } from '../../../core/use-cases/workflows/list-failed-workflow-runs.ts';
import { GetWorkflowFailureAlert } from '../../../core/use-cases/workflows/get-workflow-failure-alert.ts';
import { AcknowledgeWorkflowFailures } from '../../../core/use-cases/workflows/acknowledge-workflow-failures.ts';
import { PutWorkflow } from '../../../core/use-cases/workflows/put-workflow.ts';
import { GetFanOut } from '../../../core/use-cases/workflows/get-fan-out.ts';
import { StartFanOut } from '../../../core/use-cases/workflows/start-fan-out.ts';
import { StartWorkflowRun } from '../../../core/use-cases/workflows/start-workflow-run.ts';
import { MESSAGING } from '../../messaging-bindings.ts';
import { workflowRoutes } from '../routes/workflow-routes.ts';
import { eventRoutes } from '../routes/event-routes.ts';
import { API } from '../tokens.ts';

/** Notification events and their triggers (sends go through the messaging pipeline). */
export function bindEventsModule(container: Container): void {
  container.bind(API.routes).toResolvedValue(
    (deps, metrics) => {
      const { storage, ids, clock } = deps;
      return eventRoutes({
        createEvent: new CreateEvent({ storage, ids, clock }),
        listEvents: new ListEvents({ storage }),
        getEvent: new GetEvent({ storage }),
        updateEvent: new UpdateEvent({ storage, ids, clock }),
        triggerEvent: new TriggerEvent(deps),
        getTrigger: new GetTrigger({ storage }),
        listEventTriggers: new ListEventTriggers({ storage }),
        startWorkflowRun: new StartWorkflowRun(deps),
        startFanOut: new StartFanOut(deps),
        onSent: (channel, status) => metrics.sends.inc({ channel, status }),
      });
    },
    [MESSAGING.sendDeps, API.metrics]).inSingletonScope();
  container.bind(API.routes).toResolvedValue(
    ({ storage, ids, clock }) => workflowRoutes({
      putWorkflow: new PutWorkflow({ storage, ids, clock }), getWorkflow: new GetWorkflow({ storage }),
      getWorkflowRun: new GetWorkflowRun({ storage }), listWorkflowRuns: new ListWorkflowRuns({ storage }), getFanOut: new GetFanOut({ storage }),
      listFailedWorkflowRuns: new ListFailedWorkflowRuns({ storage, clock }), getWorkflowFailureAlert: new GetWorkflowFailureAlert({ storage, clock }),
      acknowledgeWorkflowFailures: new AcknowledgeWorkflowFailures({ storage, clock }),
    }),
    [MESSAGING.sendDeps]).inSingletonScope();
}
