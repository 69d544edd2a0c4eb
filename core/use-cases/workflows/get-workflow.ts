import { AppError } from '../../errors.ts';
import type { Storage } from '../../ports/storage.ts';
import { workflowView, type WorkflowView } from './workflow-view.ts';

/** GET /events/{id}/workflow: the latest version with the numbers of earlier ones; an event without one shows its implicit one-step workflow. */
export class GetWorkflow {
  readonly #deps: { storage: Storage };
  constructor(deps: { storage: Storage }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }, eventId: string): Promise<WorkflowView & { versions: number[] }> {
    const { storage } = this.#deps;
    const event = eventId.length <= 64 ? await storage.notificationEvents.findById(scope.organizationId, eventId) : null;
    if (!event) throw new AppError('NOT_FOUND', 'Notification event not found');
    const versions = await storage.workflows.listVersions(scope.organizationId, event.id, 100);
    return { ...workflowView(event, versions[0] ?? null), versions: versions.map((v) => v.version) };
  }
}
