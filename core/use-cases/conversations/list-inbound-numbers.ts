import { inboundNumberView } from '../../domain/conversation.ts';
import type { Storage } from '../../ports/storage.ts';

/** GET /admin/inbound-numbers: receiving numbers of platform vendor accounts assigned to organizations (docs/conversations.md). */
export class ListInboundNumbers {
  readonly #deps: { storage: Storage };
  constructor(deps: { storage: Storage }) { this.#deps = deps; }

  async execute() {
    return { items: (await this.#deps.storage.inboundNumbers.list()).map(inboundNumberView) };
  }
}
