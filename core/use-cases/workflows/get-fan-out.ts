import { AppError } from '../../errors.ts';
import { fanOutView } from '../../domain/fan-out.ts';
import type { Storage } from '../../ports/storage.ts';

/** GET /fan-outs/{id}: a fan-out's status, counts and progress (docs/workflows.md, "Fan-out"). Another organization's -> NOT_FOUND. */
export class GetFanOut {
  readonly #deps: { storage: Pick<Storage, 'workflows'> };
  constructor(deps: { storage: Pick<Storage, 'workflows'> }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }, id: string): Promise<Record<string, unknown>> {
    const fanOut = id.length > 0 && id.length <= 64 ? await this.#deps.storage.workflows.findFanOut(scope.organizationId, id) : null;
    if (!fanOut) throw new AppError('NOT_FOUND', 'Fan-out not found');
    return fanOutView(fanOut);
  }
}
