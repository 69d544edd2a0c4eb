import { AppError } from '../../errors.ts';
import { sameSenderName } from '../../domain/sender-id.ts';
import type { Clock } from '../../ports/clock.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import type { Storage } from '../../ports/storage.ts';

/**
 * `DELETE /sender-ids/{id}`: the organization stops using a sender ID. Sends naming it are refused
 * from then on; when it was the organization's default sender, the default is cleared; a pending
 * review is left for the administrators to close (deciding it changes nothing). Audited.
 */
export class DeleteSenderId {
  readonly #deps: { storage: Storage; ids: IdGenerator; clock: Clock };
  constructor(deps: { storage: Storage; ids: IdGenerator; clock: Clock }) { this.#deps = deps; }

  async execute(scope: { organizationId: string; userId: string }, id: string) {
    const { storage, ids, clock } = this.#deps;
    const now = clock.now();
    return storage.transaction(async (tx) => {
      const senderId = await tx.senderIds.findById(scope.organizationId, id);
      if (!senderId || !(await tx.senderIds.delete(scope.organizationId, id))) throw new AppError('NOT_FOUND', 'Sender ID not found');
      const organization = await tx.organizations.findById(scope.organizationId);
      const wasDefault = organization?.defaultSenderId != null && sameSenderName(organization.defaultSenderId, senderId.name);
      if (wasDefault) await tx.organizations.update(scope.organizationId, { defaultSenderId: null }, now);
      await tx.auditLog.record({
        id: ids.next(), actorUserId: scope.userId, impersonatorUserId: null, organizationId: scope.organizationId,
        action: 'sender-id.delete', target: `sender-id:${id}`, details: { name: senderId.name, wasDefault }, createdAt: now,
      });
      return { id, deleted: true, defaultCleared: wasDefault };
    });
  }
}
