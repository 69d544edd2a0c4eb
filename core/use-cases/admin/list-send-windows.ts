import type { SendWindow } from '../../domain/send-window.ts';
import type { Repositories } from '../../ports/storage.ts';

/** GET /admin/send-windows (platform administrators, docs/consent.md): every send window, by country and category. */
export class ListSendWindows {
  readonly #deps: { storage: Repositories };
  constructor(deps: { storage: Repositories }) { this.#deps = deps; }

  async execute(): Promise<{ windows: SendWindow[] }> {
    return { windows: await this.#deps.storage.sendWindows.list() };
  }
}
