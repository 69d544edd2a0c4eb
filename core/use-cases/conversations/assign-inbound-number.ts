import * as v from 'valibot';
import { AppError } from '../../errors.ts';
import { INBOUND_CHANNELS, inboundNumberView, normalizeInboundAddress } from '../../domain/conversation.ts';
import type { Clock } from '../../ports/clock.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import type { Storage } from '../../ports/storage.ts';
import { parseInput } from '../../validation.ts';

export const AssignInboundNumberInput = v.object({
  organizationId: v.pipe(v.string('must be a string'), v.trim(), v.minLength(1, 'is required'), v.maxLength(64, 'is too long')),
  channel: v.picklist(INBOUND_CHANNELS, `must be one of ${INBOUND_CHANNELS.join(', ')}`),
  address: v.pipe(v.string('must be a string'), v.transform(normalizeInboundAddress), v.minLength(3, 'must be a number, short code or WhatsApp phone-number id'),
    v.maxLength(64, 'is too long'), v.regex(/^[A-Za-z0-9_-]+$/, 'must be a number, short code or WhatsApp phone-number id')),
});

/**
 * POST /admin/inbound-numbers: a platform administrator assigns a receiving number / short code /
 * WhatsApp phone-number id of a platform vendor account to an organization; inbound messages to it
 * belong to that organization (docs/conversations.md). Audited. Errors: NOT_FOUND (organization),
 * CONFLICT (assigned already), VALIDATION_ERROR.
 */
export class AssignInboundNumber {
  readonly #deps: { storage: Storage; ids: IdGenerator; clock: Clock };
  constructor(deps: { storage: Storage; ids: IdGenerator; clock: Clock }) { this.#deps = deps; }

  async execute(actor: { userId: string }, raw: unknown) {
    const input = parseInput(AssignInboundNumberInput, raw);
    const { storage, ids, clock } = this.#deps;
    return storage.transaction(async (tx) => {
      if (!(await tx.organizations.findById(input.organizationId))) throw new AppError('NOT_FOUND', 'Organization not found');
      if (await tx.inboundNumbers.findByAddress(input.channel, input.address)) {
        throw new AppError('CONFLICT', 'This number is assigned already', { channel: input.channel, address: input.address });
      }
      const number = { id: ids.next(), organizationId: input.organizationId, channel: input.channel, address: input.address, createdAt: clock.now() };
      await tx.inboundNumbers.insert(number);
      await tx.auditLog.record({ id: ids.next(), actorUserId: actor.userId, impersonatorUserId: null, organizationId: input.organizationId,
        action: 'inbound-number.assign', target: `inbound-number:${number.id}`, details: { channel: number.channel, address: number.address }, createdAt: number.createdAt });
      return inboundNumberView(number);
    });
  }
}
