import * as v from 'valibot';
import { AppError } from '../../errors.ts';
import { fields, parseInput } from '../../validation.ts';
import { SENDER_ID_NETWORKS, SENDER_ID_PATTERN, senderIdView, type SenderId } from '../../domain/sender-id.ts';
import type { Clock } from '../../ports/clock.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import type { Storage } from '../../ports/storage.ts';

/** Sender IDs one organization may hold (any status). */
export const MAX_SENDER_IDS = 20;

/** `POST /sender-ids`: what the networks ask before registering a sender ID. */
export const RequestSenderIdInput = v.object({
  name: v.pipe(v.string('must be a string'), v.trim(), v.regex(SENDER_ID_PATTERN, 'must be 3 to 11 letters, digits or spaces, with at least one letter')),
  purpose: fields.requiredText(500),
  sampleMessage: fields.requiredText(640),
  networks: v.optional(v.pipe(
    v.array(v.picklist(SENDER_ID_NETWORKS, `must be among ${SENDER_ID_NETWORKS.join(', ')}`), 'must be an array'),
    v.minLength(1, 'must name at least one network'), v.transform((n) => (n.includes('ALL') ? ['ALL' as const] : [...new Set(n)])),
  ), ['ALL']),
});
export type RequestSenderIdInput = v.InferInput<typeof RequestSenderIdInput>;

/**
 * A tenant asks to send SMS under a sender ID: recorded PENDING with an approval request for the
 * platform administrators (the existing approvals flow), both in one transaction, and audited. A name
 * the organization already has is SENDER_ID_EXISTS, except a REJECTED one, which is resubmitted
 * (same id, new details, PENDING again). At most MAX_SENDER_IDS per organization (LIMIT_REACHED).
 */
export class RequestSenderId {
  readonly #deps: { storage: Storage; ids: IdGenerator; clock: Clock };
  constructor(deps: { storage: Storage; ids: IdGenerator; clock: Clock }) { this.#deps = deps; }

  async execute(scope: { organizationId: string; userId: string }, raw: unknown) {
    const input = parseInput(RequestSenderIdInput, raw);
    const { storage, ids, clock } = this.#deps;
    const now = clock.now();
    const saved = await storage.transaction(async (tx) => {
      const existing = await tx.senderIds.findByName(scope.organizationId, input.name);
      if (existing && existing.status !== 'REJECTED') {
        throw new AppError('SENDER_ID_EXISTS', `The sender ID ${existing.name} is already ${existing.status.toLowerCase()}`, { senderIdId: existing.id, status: existing.status });
      }
      const id = existing?.id ?? ids.next();
      const approvalId = ids.next();
      const details = { purpose: input.purpose, sampleMessage: input.sampleMessage, networks: input.networks };
      await tx.approvals.insert({
        id: approvalId, organizationId: scope.organizationId, kind: 'SENDER_ID', subjectId: id, status: 'PENDING',
        content: { name: existing?.name ?? input.name, ...details }, requestedByUserId: scope.userId,
        decidedByUserId: null, decidedAt: null, comment: null, createdAt: now,
      });
      let senderId: SenderId | null;
      if (existing) {
        senderId = await tx.senderIds.resubmit(scope.organizationId, existing.id, { ...details, approvalId }, now);
      } else {
        senderId = {
          id, organizationId: scope.organizationId, name: input.name, ...details, status: 'PENDING', approvalId, reviewComment: null, createdAt: now, updatedAt: now,
        };
        if (!await tx.senderIds.insertWithinLimit(senderId, MAX_SENDER_IDS)) {
          throw new AppError('LIMIT_REACHED', `An organization may hold at most ${MAX_SENDER_IDS} sender IDs; delete one first`, { limit: MAX_SENDER_IDS });
        }
      }
      await tx.auditLog.record({
        id: ids.next(), actorUserId: scope.userId, impersonatorUserId: null, organizationId: scope.organizationId,
        action: existing ? 'sender-id.resubmit' : 'sender-id.request', target: `sender-id:${id}`, details: { name: senderId!.name, networks: input.networks }, createdAt: now,
      });
      return senderId!;
    });
    return senderIdView(saved);
  }
}
