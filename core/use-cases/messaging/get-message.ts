import { AppError } from '../../errors.ts';
import { deliveryLogView } from '../../domain/message.ts';
import type { Storage } from '../../ports/storage.ts';

/** GET /messages/{id}: one delivery log of the caller's organization (another organization's id -> NOT_FOUND). */
export class GetMessage {
  readonly #deps: { storage: Storage };
  constructor(deps: { storage: Storage }) { this.#deps = deps; }

  async execute(organizationId: string, id: string) {
    const message = await this.#deps.storage.messages.findById(organizationId, id);
    if (!message) throw new AppError('NOT_FOUND', 'Message not found');
    return { ...deliveryLogView(message), subject: message.subject, body: message.body };
  }
}
