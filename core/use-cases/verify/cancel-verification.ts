import { AppError } from '../../errors.ts';
import { verificationView } from '../../domain/verification.ts';
import { ownVerification, type VerifyDeps } from './verify-support.ts';

/** POST /verify/{id}/cancel: a PENDING verification becomes CANCELED (its code stops working); CONFLICT once decided. */
export class CancelVerification {
  readonly #deps: Pick<VerifyDeps, 'storage' | 'clock'>;
  constructor(deps: Pick<VerifyDeps, 'storage' | 'clock'>) { this.#deps = deps; }

  async execute(scope: { organizationId: string }, id: string) {
    const { storage, clock } = this.#deps;
    const current = await ownVerification(storage, scope.organizationId, id);
    const canceled = await storage.verifications.setStatus(scope.organizationId, id, ['PENDING'], 'CANCELED', clock.now());
    if (!canceled) throw new AppError('CONFLICT', `The verification is already ${current.status.toLowerCase()}`, { status: current.status });
    return verificationView(canceled, clock.now());
  }
}
