import { verificationView } from '../../domain/verification.ts';
import { publishOutboundEvent } from '../webhooks/publish-outbound-event.ts';
import type { VerifyDeps } from './verify-support.ts';

/** Verifications expired per sweep, at most. */
const SWEEP_LIMIT = 500;

/**
 * The worker's sweep (every 30 s): PENDING verifications past their expiry become EXPIRED and are
 * announced (verification.failed) in the same transaction, each once even with several workers. A
 * check that finds one expired first does the same (CheckVerification); either way it is announced once.
 */
export class ExpireVerifications {
  readonly #deps: Pick<VerifyDeps, 'storage' | 'clock' | 'ids'>;
  constructor(deps: Pick<VerifyDeps, 'storage' | 'clock' | 'ids'>) { this.#deps = deps; }

  async execute(): Promise<{ expired: number }> {
    const { storage, clock, ids } = this.#deps;
    return storage.transaction(async (tx) => {
      const now = clock.now();
      const expired = await tx.verifications.expireDue(now, SWEEP_LIMIT);
      for (const v of expired) {
        await publishOutboundEvent(tx, { id: ids.next(), organizationId: v.organizationId, kind: 'verification.failed', data: verificationView(v, now, new Map(), { forWebhook: true }), occurredAt: now });
      }
      return { expired: expired.length };
    });
  }
}
