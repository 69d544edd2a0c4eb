import { AppError } from '../../errors.ts';
import type { WorkflowVersion } from '../../domain/workflow.ts';
import type { Clock } from '../../ports/clock.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import type { Storage } from '../../ports/storage.ts';
import { parseInput } from '../../validation.ts';
import { PutWorkflowInput, toStoredStep } from './workflow-schemas.ts';
import { workflowView, type WorkflowView } from './workflow-view.ts';

/**
 * PUT /events/{id}/workflow: the event's step list, stored as a new version (1, 2, ...). Runs already
 * started keep the version they started with; new triggers run the latest. A send step without channels
 * or template takes the event's channelPriority, fallback channels and template; every template a send
 * step names must be one of the organization's, and a wait for a read follows a send that can use IN_APP
 * (VALIDATION_ERROR naming `steps`).
 */
export class PutWorkflow {
  readonly #deps: { storage: Storage; ids: IdGenerator; clock: Clock };
  constructor(deps: { storage: Storage; ids: IdGenerator; clock: Clock }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }, eventId: string, raw: unknown): Promise<WorkflowView> {
    const { storage, ids, clock } = this.#deps;
    const input = parseInput(PutWorkflowInput, raw);
    const event = eventId.length <= 64 ? await storage.notificationEvents.findById(scope.organizationId, eventId) : null;
    if (!event) throw new AppError('NOT_FOUND', 'Notification event not found');
    const defaults = { channels: event.channelPriority, fallbackChannels: event.fallbackRules.channels, templateId: event.templateId };
    const steps = input.steps.map((step) => toStoredStep(step, defaults));
    for (const [index, step] of steps.entries()) {
      if (step.type !== 'send') continue;
      const invalid = (reason: string) => new AppError('VALIDATION_ERROR', `steps[${index}].templateId: ${reason}`,
        { fieldErrors: { steps: [`steps[${index}].templateId: ${reason}`] }, formErrors: [] });
      if (!step.templateId) throw invalid('is required (the event has no template)');
      if (!await storage.templates.findById(scope.organizationId, step.templateId)) throw invalid('template not found');
    }
    for (const [index, step] of steps.entries()) {
      if (step.type !== 'wait' || step.for !== 'read') continue;
      const send = steps.slice(0, index).reverse().find((s) => s.type === 'send');
      if (send?.type === 'send' && !send.channels.includes('IN_APP') && !send.fallbackChannels.includes('IN_APP')) {
        const reason = 'a wait for a read needs the send step before it to list IN_APP in channels or fallbackChannels (a read happens in the in-app inbox)';
        throw new AppError('VALIDATION_ERROR', `steps[${index}].for: ${reason}`, { fieldErrors: { steps: [`steps[${index}].for: ${reason}`] }, formErrors: [] });
      }
    }
    // The version number is taken under the unique (event, version) key: a concurrent PUT gets CONFLICT and may retry.
    const latest = await storage.workflows.latestVersion(scope.organizationId, event.id);
    const version: WorkflowVersion = {
      id: ids.next(), organizationId: scope.organizationId, eventId: event.id, version: (latest?.version ?? 0) + 1,
      steps, cancelOn: input.cancelOn, retry: input.retry, createdAt: clock.now(),
    };
    await storage.workflows.insertVersion(version);
    return workflowView(event, version);
  }
}
