import * as v from 'valibot';
import { AppError, isAppError } from '../../errors.ts';
import { fields, parseInput } from '../../validation.ts';
import { deliveryLogView } from '../../domain/message.ts';
import type { Clock } from '../../ports/clock.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import type { Storage } from '../../ports/storage.ts';
import type { WebhookSubscriptions } from '../../ports/webhook-subscriptions.ts';
import { withdrawScheduled } from './withdraw-scheduled.ts';

/** Most messages one `POST /messages/cancel` names (a bulk request's worth). */
export const CANCEL_MANY_MAX = 100;

export const CancelManyInput = v.object({
  ids: v.pipe(v.array(fields.id(), 'must be an array of message ids'), v.minLength(1, 'must name at least 1 message'),
    v.maxLength(CANCEL_MANY_MAX, `must name at most ${CANCEL_MANY_MAX} messages`)),
});

export type CancelOutcome =
  | { id: string; cancelled: true; log: ReturnType<typeof deliveryLogView> }
  | { id: string; cancelled: false; error: { code: string; message: string; details: Record<string, unknown> } };

export interface CancelScheduledDeps {
  storage: Storage;
  clock: Clock;
  ids: IdGenerator;
  webhooks?: WebhookSubscriptions | undefined;
}

/**
 * POST /messages/{id}/cancel (docs/scheduling.md): a SCHEDULED message of the caller's organization
 * becomes CANCELLED and its charge is refunded once (REFUND ledger entry referencing the message);
 * message.status.updated is published. Another organization's or an unknown id -> NOT_FOUND; any
 * other status (already released, or final) -> CONFLICT with the current status. A cancel racing the
 * release is decided by the message row: whichever commits first wins, the other sees CONFLICT or
 * releases nothing.
 */
export class CancelScheduledMessage {
  readonly #deps: CancelScheduledDeps;
  constructor(deps: CancelScheduledDeps) { this.#deps = deps; }

  async execute(organizationId: string, id: string) {
    const { storage, clock, ids, webhooks } = this.#deps;
    const message = id.length <= 64 ? await storage.messages.findById(organizationId, id) : null;
    if (!message) throw new AppError('NOT_FOUND', 'Message not found');
    if (message.status !== 'SCHEDULED') throw notScheduled(message.status);
    const publish = webhooks ? await webhooks.hasSubscribers(organizationId, 'message.status.updated') : false;
    const cancelled = await storage.transaction((tx) => withdrawScheduled(tx, ids, message, {
      status: 'CANCELLED', errorCode: null, errorMessage: null, source: 'api', reason: 'cancelled before its scheduled time', publish,
    }, clock.now()));
    if (!cancelled) throw notScheduled((await storage.messages.findById(organizationId, id))?.status ?? 'unknown');
    return deliveryLogView(cancelled);
  }

  /**
   * POST /messages/cancel: up to 100 ids (a bulk request's or a trigger's messages), each cancelled as
   * above on its own; one outcome per id in order (NOT_FOUND or CONFLICT per id, never for the request).
   */
  async executeMany(organizationId: string, raw: unknown): Promise<CancelOutcome[]> {
    const { ids } = parseInput(CancelManyInput, raw);
    const outcomes: CancelOutcome[] = [];
    for (const id of new Set(ids)) {
      try {
        outcomes.push({ id, cancelled: true, log: await this.execute(organizationId, id) });
      } catch (error) {
        if (!isAppError(error) || (error.code !== 'NOT_FOUND' && error.code !== 'CONFLICT')) throw error;
        outcomes.push({ id, cancelled: false, error: { code: error.code, message: error.message, details: error.details } });
      }
    }
    return outcomes;
  }
}

function notScheduled(status: string): AppError {
  return new AppError('CONFLICT', `Only a SCHEDULED message can be cancelled; this one is ${status}`, { status });
}
