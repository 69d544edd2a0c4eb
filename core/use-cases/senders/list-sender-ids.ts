import { senderIdView } from '../../domain/sender-id.ts';
import type { Storage } from '../../ports/storage.ts';
import { MAX_SENDER_IDS } from './request-sender-id.ts';

/** `GET /sender-ids`: the organization's sender IDs (every status, newest first) and its default sender. */
export class ListSenderIds {
  readonly #deps: { storage: Storage };
  constructor(deps: { storage: Storage }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }) {
    const { storage } = this.#deps;
    const [items, organization] = await Promise.all([storage.senderIds.list(scope.organizationId, MAX_SENDER_IDS), storage.organizations.findById(scope.organizationId)]);
    return { items: items.map(senderIdView), defaultSenderId: organization?.defaultSenderId ?? null, limit: MAX_SENDER_IDS };
  }
}
