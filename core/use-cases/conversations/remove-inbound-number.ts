import { AppError } from '../../errors.ts';
import type { Clock } from '../../ports/clock.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import type { Storage } from '../../ports/storage.ts';

/** DELETE /admin/inbound-numbers/{id}: removes an assignment (audited). Errors: NOT_FOUND. */
export class RemoveInboundNumber {
  readonly #deps: { storage: Storage; ids: IdGenerator; clock: Clock };
  constructor(deps: { storage: Storage; ids: IdGenerator; clock: Clock }) { this.#deps = deps; }

  async execute(actor: { userId: string }, id: string): Promise<{ id: string; deleted: true }> {
    const { storage, ids, clock } = this.#deps;
    const found = (await storage.inboundNumbers.list()).find((n) => n.id === id);
    if (!found || !(await storage.inboundNumbers.delete(id))) throw new AppError('NOT_FOUND', 'Inbound number not found');
    await storage.auditLog.record({ id: ids.next(), actorUserId: actor.userId, impersonatorUserId: null, organizationId: found.organizationId,
      action: 'inbound-number.remove', target: `inbound-number:${id}`, details: { channel: found.channel, address: found.address }, createdAt: clock.now() });
    return { id, deleted: true };
  }
}
