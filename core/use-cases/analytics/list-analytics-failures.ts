import { deliveryLogView } from '../../domain/message.ts';
import type { Storage } from '../../ports/storage.ts';

export const MAX_FAILURES_LISTED = 50;

/** GET /analytics/failures: the last 50 FAILED delivery logs, newest first, each with its errorCode and errorMessage. */
export class ListAnalyticsFailures {
  readonly #deps: { storage: Pick<Storage, 'messages'> };
  constructor(deps: { storage: Pick<Storage, 'messages'> }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }) {
    const page = await this.#deps.storage.messages.list(scope.organizationId, { status: 'FAILED' }, 0, MAX_FAILURES_LISTED, 1);
    return page.items.map((m) => ({ ...deliveryLogView(m), errorCode: m.errorCode, errorMessage: m.errorMessage, reason: m.errorMessage ?? m.errorCode }));
  }
}
