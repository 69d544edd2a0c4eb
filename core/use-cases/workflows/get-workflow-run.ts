import { AppError } from '../../errors.ts';
import type { Storage } from '../../ports/storage.ts';
import { runView, type RunView } from './workflow-view.ts';

/** GET /workflow-runs/{id}: a run's timeline (each step's status, outcome, waits, messages and their cost). Another organization's run -> NOT_FOUND. */
export class GetWorkflowRun {
  readonly #deps: { storage: Pick<Storage, 'workflows' | 'messages'> };
  constructor(deps: { storage: Pick<Storage, 'workflows' | 'messages'> }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }, id: string): Promise<RunView> {
    const { storage } = this.#deps;
    const run = id.length > 0 && id.length <= 64 ? await storage.workflows.findRun(scope.organizationId, id) : null;
    if (!run) throw new AppError('NOT_FOUND', 'Workflow run not found');
    const steps = await storage.workflows.listSteps(scope.organizationId, run.id);
    const messages = new Map<string, { status: string; channel: string; cost: number }>();
    for (const step of steps) {
      if (!step.messageId) continue;
      const message = await storage.messages.findById(scope.organizationId, step.messageId);
      if (message) messages.set(message.id, { status: message.status, channel: message.channel, cost: message.cost });
    }
    return runView(run, steps, messages);
  }
}
