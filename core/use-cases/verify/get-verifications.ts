import * as v from 'valibot';
import { parseInput } from '../../validation.ts';
import { verificationView, type VerificationStatus } from '../../domain/verification.ts';
import { ownVerification, sendStatuses, type VerifyDeps } from './verify-support.ts';

const STATUSES = ['PENDING', 'APPROVED', 'EXPIRED', 'MAX_ATTEMPTS', 'CANCELED', 'FAILED'] as const;
export const ListVerificationsQuery = v.object({
  limit: v.optional(v.pipe(v.string(), v.regex(/^\d+$/, 'must be a whole number'), v.transform(Number), v.minValue(1, 'must be at least 1'), v.maxValue(100, 'must be at most 100')), '50'),
  status: v.optional(v.picklist(STATUSES, `must be one of ${STATUSES.join(', ')}`)),
});

/** GET /verify/{id} (with each send's delivery status) and GET /verify (recent, newest first, at most 100). The code is never part of a view. */
export class GetVerifications {
  readonly #deps: Pick<VerifyDeps, 'storage' | 'clock'>;
  constructor(deps: Pick<VerifyDeps, 'storage' | 'clock'>) { this.#deps = deps; }

  async one(scope: { organizationId: string }, id: string) {
    const found = await ownVerification(this.#deps.storage, scope.organizationId, id);
    return verificationView(found, this.#deps.clock.now(), await sendStatuses(this.#deps.storage, found));
  }

  async list(scope: { organizationId: string }, raw: unknown) {
    const query = parseInput(ListVerificationsQuery, raw ?? {});
    const items = await this.#deps.storage.verifications.list(scope.organizationId, Number(query.limit), query.status as VerificationStatus | undefined);
    // Every item's send statuses in one lookup (a list shows them as GET /verify/{id} does).
    const messageIds = items.flatMap((x) => x.sends.map((s) => s.messageId));
    const messages = messageIds.length > 0 ? await this.#deps.storage.messages.findManyByIds(scope.organizationId, messageIds) : [];
    const statuses = new Map(messages.map((m) => [m.id, m.status]));
    const now = this.#deps.clock.now();
    return { items: items.map((x) => verificationView(x, now, statuses)) };
  }
}
