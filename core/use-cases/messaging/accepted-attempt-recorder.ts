import type { Message } from '../../domain/message.ts';
import { messageStatusUpdatedEvent } from '../../domain/webhook.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import type { AcceptedDelivery } from '../../ports/message-status-repository.ts';
import type { Storage } from '../../ports/storage.ts';
import type { WebhookSubscriptions } from '../../ports/webhook-subscriptions.ts';
import type { TraceCapture, TraceCarrier } from '../../ports/trace-capture.ts';
import { publishOutboundEvent } from '../webhooks/publish-outbound-event.ts';

/** Most accepted attempts one statement records. */
export const MAX_RECORDED_TOGETHER = 500;

interface Waiting {
  accepted: AcceptedDelivery;
  /** Tracing on: the trace of the delivery recording it (its webhook event carries it), else undefined. */
  trace: TraceCarrier | null | undefined;
  organizationId: string;
  resolve: (moved: Message | null) => void;
  reject: (error: unknown) => void;
}

export interface AcceptedAttemptRecorderDeps {
  storage: Storage;
  ids: IdGenerator;
  /** When given, organizations subscribed to message.status.updated get the event in the same transaction. */
  webhooks?: WebhookSubscriptions | undefined;
  /** Tracing on: each delivery's trace, carried by its message.status.updated event's job (the group is written in its leader's context). */
  traces?: TraceCapture | undefined;
}

/**
 * Group commit for the hot write of every delivery: accepted attempts that finish in the same turn of
 * the event loop (a fetched batch answered by an instant provider), or while an earlier group is being
 * written, are recorded together by one `recordAcceptedAttempts` statement. Nothing waits on a timer.
 *
 * Each caller gets the outcome it would have had alone: its moved message, or null when the message
 * was no longer PENDING. When a group fails as a whole, each attempt is retried alone, so one bad row
 * never fails its neighbours. Organizations with a subscribed webhook endpoint are recorded in a
 * transaction that also publishes their message.status.updated events.
 */
export class AcceptedAttemptRecorder {
  readonly #deps: AcceptedAttemptRecorderDeps;
  #waiting: Waiting[] = [];
  #scheduled = false;
  #flushing = false;
  constructor(deps: AcceptedAttemptRecorderDeps) { this.#deps = deps; }

  record(organizationId: string, accepted: AcceptedDelivery): Promise<Message | null> {
    const trace = this.#deps.traces?.current(accepted.attempt.messageId);
    const promise = new Promise<Message | null>((resolve, reject) => { this.#waiting.push({ accepted, organizationId, trace, resolve, reject }); });
    this.#schedule();
    return promise;
  }

  #schedule(): void {
    if (this.#scheduled || this.#flushing) return;
    this.#scheduled = true;
    setImmediate(() => { this.#scheduled = false; void this.#drain(); });
  }

  async #drain(): Promise<void> {
    this.#flushing = true;
    try {
      while (this.#waiting.length > 0) await this.#flush(this.#waiting.splice(0, MAX_RECORDED_TOGETHER));
    } finally {
      this.#flushing = false;
      if (this.#waiting.length > 0) this.#schedule();
    }
  }

  async #flush(group: Waiting[]): Promise<void> {
    const subscribed = await this.#subscribedOrganizations(group);
    const plain = group.filter((w) => !subscribed.has(w.organizationId));
    const publishing = group.filter((w) => subscribed.has(w.organizationId));
    // One after the other: on the embedded default one connection serves both, and a transaction must not interleave with other statements.
    await this.#settle(plain, false);
    await this.#settle(publishing, true);
  }

  /** Records `group` in one step; if that fails, each alone. */
  async #settle(group: Waiting[], publish: boolean): Promise<void> {
    if (group.length === 0) return;
    try {
      const moved = await this.#write(group, publish);
      group.forEach((w) => w.resolve(moved.get(w.accepted.attempt.messageId) ?? null));
      return;
    } catch (error) {
      if (group.length === 1) { group[0]!.reject(error); return; }
    }
    for (const w of group) {
      try {
        const moved = await this.#write([w], publish);
        w.resolve(moved.get(w.accepted.attempt.messageId) ?? null);
      } catch (error) {
        w.reject(error);
      }
    }
  }

  async #write(group: Waiting[], publish: boolean): Promise<Map<string, Message>> {
    const { storage, ids } = this.#deps;
    const accepted = group.map((w) => w.accepted);
    const traces = new Map(group.map((w) => [w.accepted.attempt.messageId, w.trace]));
    const moved = publish
      ? await storage.transaction(async (tx) => {
        const changed = await tx.messageStatus.recordAcceptedAttempts(accepted);
        for (const message of changed) {
          await publishOutboundEvent(tx, messageStatusUpdatedEvent(ids.next(), message, message.updatedAt), traces.get(message.id));
        }
        return changed;
      })
      : await storage.messageStatus.recordAcceptedAttempts(accepted);
    return new Map(moved.map((m) => [m.id, m]));
  }

  /** Organizations of `group` with an endpoint for message.status.updated (a cached lookup: no statement for most). */
  async #subscribedOrganizations(group: Waiting[]): Promise<Set<string>> {
    const { webhooks } = this.#deps;
    const found = new Set<string>();
    if (!webhooks) return found;
    for (const organizationId of new Set(group.map((w) => w.organizationId))) {
      if (await webhooks.hasSubscribers(organizationId, 'message.status.updated')) found.add(organizationId);
    }
    return found;
  }
}
