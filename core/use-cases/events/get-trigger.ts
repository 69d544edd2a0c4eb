import { AppError } from '../../errors.ts';
import type { Storage } from '../../ports/storage.ts';
import { loadTriggerView, type TriggerView } from './trigger-view.ts';

/** GET /events/triggers/{id}: one trigger with its steps and delivery logs (another organization's id -> NOT_FOUND). */
export class GetTrigger {
  readonly #deps: { storage: Storage };
  constructor(deps: { storage: Storage }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }, id: string): Promise<TriggerView> {
    const trigger = id.length <= 64 ? await this.#deps.storage.eventTriggers.findById(scope.organizationId, id) : null;
    if (!trigger) throw new AppError('NOT_FOUND', 'Event trigger not found');
    return loadTriggerView(this.#deps.storage, trigger);
  }
}
