import * as v from 'valibot';
import { AppError } from '../../errors.ts';
import { canonicalJson } from '../../domain/canonical-json.ts';
import { EVENT_SLUG_PATTERN } from '../../domain/notification-event.ts';
import { FAN_OUT_LIMITS, TOPIC_MAX, fanOutView, type FanOut } from '../../domain/fan-out.ts';
import type { Clock } from '../../ports/clock.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import { QUEUES } from '../../ports/job-queue.ts';
import type { Secrets } from '../../ports/secrets.ts';
import type { Storage } from '../../ports/storage.ts';
import { fields, parseInput } from '../../validation.ts';
import { EVENT_SLUG_MAX } from '../events/event-schemas.ts';
import { claimTriggerKey } from '../events/trigger-idempotency.ts';
import { idempotencyKeySchema, variablesSchema } from '../messaging/message-preparation.ts';
import type { SendContext } from '../messaging/send-context.ts';
import { fanOutAudience } from './fan-out-audience.ts';

/** Fields of a single recipient's trigger, refused beside `segmentId` or `topic`. */
const SINGLE_RECIPIENT_FIELDS = ['to', 'contactId', 'subscriberId', 'sendAt'] as const;

/** POST /events/trigger to a segment or a topic (docs/workflows.md, "Fan-out"). */
export const FanOutTriggerInput = v.pipe(v.object({
  event: v.pipe(v.string('must be a string'), v.trim(), v.minLength(1, 'is required'), v.maxLength(EVENT_SLUG_MAX, `must be at most ${EVENT_SLUG_MAX} characters`),
    v.regex(EVENT_SLUG_PATTERN, 'must be an event slug: lowercase letters, digits, dot, underscore and hyphen')),
  /** Every contact of this segment (dynamic: its rules when each page is read; static: its members). */
  segmentId: v.optional(fields.id()),
  /** Every contact carrying this tag. */
  topic: v.optional(v.pipe(v.string('must be a string'), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(TOPIC_MAX, `must be at most ${TOPIC_MAX} characters`), v.toLowerCase())),
  variables: variablesSchema,
  idempotencyKey: idempotencyKeySchema,
  /** Carried by every run started (a later trigger with this key and a `cancelOn` event cancels them all). */
  correlationKey: v.optional(v.pipe(v.string('must be a string'), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(200, 'must be at most 200 characters'))),
}), v.check((input) => (input.segmentId === undefined) !== (input.topic === undefined), 'exactly one of segmentId or topic is required'));

/** True when a trigger body addresses a segment or a topic (the route sends it here rather than to one recipient). */
export function isFanOutBody(raw: unknown): boolean {
  return typeof raw === 'object' && raw !== null && ('segmentId' in raw || 'topic' in raw);
}

export interface StartFanOutDeps {
  storage: Storage; clock: Clock; ids: IdGenerator; secrets: Secrets;
  /** The plan's bound on one fan-out's audience (default FAN_OUT_LIMITS.recipients). */
  maxRecipients?: number;
}

/**
 * Accepts a fan-out: the event (404, 422 EVENT_INACTIVE; without a workflow it needs a template, 400), the
 * audience (an unknown segment 404) counted against FAN_OUT_LIMITS.recipients (LIMIT_REACHED), then the fan-out
 * row and its first `workflow-fan-out` job in one transaction; the worker streams the audience (RunFanOut).
 * The idempotencyKey shares the key space of every POST /events/trigger (claimTriggerKey): the same body replays
 * the fan-out, anything else is IDEMPOTENCY_KEY_REUSED.
 */
export class StartFanOut {
  readonly #deps: StartFanOutDeps;
  constructor(deps: StartFanOutDeps) { this.#deps = deps; }

  async execute(ctx: SendContext, raw: unknown): Promise<{ fanOut: Record<string, unknown>; replayed: boolean }> {
    const mixed = SINGLE_RECIPIENT_FIELDS.filter((name) => typeof raw === 'object' && raw !== null && name in raw);
    if (mixed.length > 0) {
      throw new AppError('VALIDATION_ERROR', `${mixed.join(', ')}: not allowed with segmentId or topic`,
        { fieldErrors: Object.fromEntries(mixed.map((name) => [name, ['not allowed with segmentId or topic']])), formErrors: [] });
    }
    const input = parseInput(FanOutTriggerInput, raw);
    const { storage, clock, ids, secrets } = this.#deps;
    const event = await storage.notificationEvents.findBySlug(ctx.organizationId, input.event);
    if (!event) throw new AppError('NOT_FOUND', `No notification event with slug "${input.event}"`, { event: input.event });
    if (!event.isActive) throw new AppError('EVENT_INACTIVE', `The notification event "${event.slug}" is deactivated`, { event: event.slug });
    const kind = (await storage.workflows.latestVersion(ctx.organizationId, event.id)) ? 'RUNS' as const : 'TRIGGERS' as const;
    if (kind === 'TRIGGERS' && !event.templateId) {
      throw new AppError('VALIDATION_ERROR', `event: "${event.slug}" has no template; link one with PATCH /events/{id}`,
        { fieldErrors: { event: ['has no template; link one with PATCH /events/{id}'] }, formErrors: [] });
    }
    const target = { segmentId: input.segmentId ?? null, topic: input.topic ?? null };
    const total = await storage.contacts.count(ctx.organizationId, await fanOutAudience(storage, ctx.organizationId, target));
    const limit = this.#deps.maxRecipients ?? FAN_OUT_LIMITS.recipients;
    if (total > limit) throw new AppError('LIMIT_REACHED', `A fan-out reaches at most ${limit} contacts; this audience has ${total}`, { limit, recipients: total });
    const { idempotencyKey, ...request } = input;
    const now = clock.now();
    const fanOut: FanOut = {
      id: ids.next(), organizationId: ctx.organizationId, eventId: event.id, eventSlug: event.slug, kind, ...target,
      request: { variables: input.variables ?? {}, correlationKey: input.correlationKey ?? null }, status: 'RUNNING', cursor: null, total,
      processed: 0, started: 0, skipped: 0, failureReason: null, apiKeyId: ctx.apiKeyId, userId: ctx.userId, isSandbox: ctx.isSandbox,
      createdAt: now, updatedAt: now, completedAt: null,
    };
    const recorded = await storage.transaction(async (tx) => {
      if (idempotencyKey) {
        const earlierId = await claimTriggerKey(tx, ctx.organizationId, { idempotencyKey, requestHash: secrets.sha256(canonicalJson(request)), kind: 'fan-out', answerId: fanOut.id, now });
        const earlier = earlierId ? await tx.workflows.findFanOut(ctx.organizationId, earlierId) : null;
        if (earlier) return { fanOut: earlier, replayed: true };
      }
      await tx.workflows.insertFanOut(fanOut);
      await tx.jobs.enqueue(QUEUES.workflowFanOut, { fanOutId: fanOut.id, organizationId: fanOut.organizationId });
      return { fanOut, replayed: false };
    });
    return { fanOut: fanOutView(recorded.fanOut), replayed: recorded.replayed };
  }
}
