import { AppError } from '../../errors.ts';
import type { Repositories } from '../../ports/storage.ts';

const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;
/**
 * One key space per organization for POST /events/trigger, whatever the trigger's answer is: a plain event
 * trigger, a workflow run or a fan-out. Beside send keys in the organization's idempotency table, in their own namespace.
 */
export const TRIGGER_IDEMPOTENCY_PREFIX = 'event-trigger:';

/** What a trigger's key answered. */
export type TriggerKind = 'trigger' | 'run' | 'fan-out';
const KIND_NAMES: Record<TriggerKind, string> = { trigger: 'an event trigger', run: 'a workflow run', 'fan-out': 'a fan-out' };

async function kindOf(tx: Repositories, organizationId: string, id: string): Promise<TriggerKind | null> {
  if (await tx.eventTriggers.findById(organizationId, id)) return 'trigger';
  if (await tx.workflows.findRun(organizationId, id)) return 'run';
  if (await tx.workflows.findFanOut(organizationId, id)) return 'fan-out';
  return null;
}

/**
 * Claims `idempotencyKey` for a trigger whose answer will be `kind` with `answerId`, inside the trigger's
 * transaction (the answer's id is recorded with the claim). Answers null when this request won the key, or
 * the id of the earlier answer to replay: the same body (`requestHash`) whose earlier answer was of the same
 * kind. Another body, or the same body answered as another kind (the event gained or lost a workflow, a
 * fan-out key reused for one recipient) -> IDEMPOTENCY_KEY_REUSED with `details.earlier { kind, id }`.
 */
export async function claimTriggerKey(tx: Repositories, organizationId: string, claim: { idempotencyKey: string; requestHash: string; kind: TriggerKind; answerId: string; now: Date }): Promise<string | null> {
  const key = `${TRIGGER_IDEMPOTENCY_PREFIX}${claim.idempotencyKey}`;
  const result = await tx.idempotency.claim(organizationId, key, claim.requestHash, claim.now, new Date(claim.now.getTime() + IDEMPOTENCY_TTL_MS));
  if (result.claimed) {
    await tx.idempotency.complete(organizationId, key, [claim.answerId]);
    return null;
  }
  const earlierId = result.messageIds[0];
  const earlierKind = earlierId ? await kindOf(tx, organizationId, earlierId) : null;
  if (result.requestHash !== claim.requestHash || (earlierKind !== null && earlierKind !== claim.kind)) {
    const what = earlierKind ? `; it answered ${KIND_NAMES[earlierKind]}${result.requestHash === claim.requestHash ? `, this request would be ${KIND_NAMES[claim.kind]}` : ''}` : '';
    throw new AppError('IDEMPOTENCY_KEY_REUSED', `This idempotencyKey was used for a different request in the last 24 hours${what}`,
      { idempotencyKey: claim.idempotencyKey, ...(earlierKind && earlierId ? { earlier: { kind: earlierKind, id: earlierId } } : {}) });
  }
  if (!earlierId || !earlierKind) throw new AppError('CONFLICT', 'A trigger with this idempotencyKey is still being processed', { idempotencyKey: claim.idempotencyKey }, { retryable: true });
  return earlierId;
}
