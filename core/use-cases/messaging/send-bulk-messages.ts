import { linkTrackingOption } from '../links/link-tracking.ts';
import { optOutOption } from '../consent/opt-out-link-text.ts';
import * as v from 'valibot';
import { AppError, isAppError } from '../../errors.ts';
import { parseInput } from '../../validation.ts';
import { canonicalJson } from '../../domain/canonical-json.ts';
import { deliveryLogView, type Message } from '../../domain/message.ts';
import { AcceptCoalescer } from './accept-coalescer.ts';
import { channelSchema, countryCodeSchema, idempotencyKeySchema, prepareMessage, variablesSchema, type PreparedMessage, categorySchema } from './message-preparation.ts';
import { deliverInline, type SendDeps } from './send-message.ts';
import type { SendContext } from './send-context.ts';
import { sendAtOf, sendAtSchema } from './send-at.ts';
import { pushFieldEntries } from './push-fields.ts';

export const BULK_MAX = 100;
const INLINE_CONCURRENCY = 10;

export const BulkItemInput = v.object({
  channel: channelSchema,
  to: v.pipe(v.string('must be a string'), v.trim(), v.minLength(1, 'is required'), v.maxLength(4096, 'is too long')),
  body: v.pipe(v.string('must be a string'), v.maxLength(200_000, 'is too long')),
  variables: variablesSchema,
  category: categorySchema,
  senderId: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(11, 'must be at most 11 characters'))),
  templateId: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(64))),
  subject: v.optional(v.pipe(v.string(), v.maxLength(998))),
  /** This item's own `sendAt`, overriding the request's. */
  sendAt: sendAtSchema,
  /** PUSH only (docs/messaging-rules.md). */
  ...pushFieldEntries,
});

export const SendBulkInput = v.object({
  async: v.optional(v.boolean('must be true or false'), false),
  countryCode: v.optional(countryCodeSchema, 'GH'),
  idempotencyKey: idempotencyKeySchema,
  /** Every item not before this time unless the item names its own (docs/scheduling.md). */
  sendAt: sendAtSchema,
  messages: v.pipe(v.array(v.unknown(), 'must be an array'), v.minLength(1, 'must contain at least 1 message'), v.maxLength(BULK_MAX, `must contain at most ${BULK_MAX} messages`)),
});

/**
 * POST /messages/bulk: 1-100 messages, validated all-or-nothing (any invalid item -> 400 naming the
 * item), charged in one debit, recorded and queued in one transaction. Each item gets its own
 * delivery log; fraud rejections are per item. Items with a future `sendAt` (their own or the
 * request's) are SCHEDULED; a sync request answers 202 when nothing was delivered inline and some
 * item is SCHEDULED, as an async one does.
 */
export class SendBulkMessages {
  readonly #deps: SendDeps;
  readonly #coalescer: AcceptCoalescer;
  constructor(deps: SendDeps) { this.#deps = deps; this.#coalescer = new AcceptCoalescer(deps); }

  async execute(ctx: SendContext, raw: unknown): Promise<{ logs: Array<ReturnType<typeof deliveryLogView>>; queued: boolean; replayed: boolean }> {
    const input = parseInput(SendBulkInput, raw);
    const rules = await this.#deps.pricing.listActive();
    const now = this.#deps.clock.now();
    const requestSendAt = sendAtOf(input.sendAt, now);
    const items = input.messages.map((item, index) => itemOrThrow(item, index));
    const templateIds = [...new Set(items.flatMap((i) => (i.templateId ? [i.templateId] : [])))];
    const templates = new Map(await Promise.all(templateIds.map(async (id) => [id, await this.#deps.storage.templates.findById(ctx.organizationId, id)] as const)));
    const optOut = optOutOption(this.#deps, ctx.organizationId);
    const links = await linkTrackingOption(this.#deps, ctx.organizationId);
    const prepared: PreparedMessage[] = items.map((item, index) => {
      try {
        const sendAt = item.sendAt !== undefined ? sendAtOf(item.sendAt, now) : requestSendAt;
        return prepareMessage({ ...item, sendAt, countryCode: input.countryCode }, item.templateId ? templates.get(item.templateId) ?? null : null, rules, '', { subjectFromBody: true, optOut, networks: this.#deps.networks, links });
      } catch (error) {
        throw itemError(error, index);
      }
    });
    const { idempotencyKey, ...request } = input;
    const accepted = await this.#coalescer.accept({
      ctx, prepared, async: input.async,
      idempotency: idempotencyKey ? { key: idempotencyKey, requestHash: this.#deps.secrets.sha256(canonicalJson(request)) } : null,
    });
    let messages = accepted.messages;
    const inline = !input.async && !accepted.replayed && messages.some((m) => m.status === 'QUEUED');
    if (inline) messages = await this.#deliverAll(messages);
    const queued = input.async || (!inline && messages.some((m) => m.status === 'SCHEDULED'));
    return { logs: messages.map(deliveryLogView), queued, replayed: accepted.replayed };
  }

  async #deliverAll(messages: Message[]): Promise<Message[]> {
    const results = [...messages];
    let next = 0;
    const worker = async () => {
      while (next < results.length) {
        const i = next++;
        const m = results[i]!;
        if (m.status === 'QUEUED') results[i] = await deliverInline(this.#deps, m);
      }
    };
    await Promise.all(Array.from({ length: Math.min(INLINE_CONCURRENCY, results.length) }, worker));
    return results;
  }
}

function itemOrThrow(item: unknown, index: number) {
  try {
    return parseInput(BulkItemInput, item);
  } catch (error) {
    throw itemError(error, index);
  }
}

/** Re-keys an item's validation error under `messages`, naming the item's index. */
function itemError(error: unknown, index: number): unknown {
  if (!isAppError(error) || error.code !== 'VALIDATION_ERROR') return error;
  const fieldErrors = (error.details['fieldErrors'] ?? {}) as Record<string, string[]>;
  const messages = Object.entries(fieldErrors).flatMap(([field, list]) => list.map((m) => `messages[${index}].${field}: ${m}`));
  const formErrors = ((error.details['formErrors'] ?? []) as string[]).map((m) => `messages[${index}]: ${m}`);
  const all = [...messages, ...formErrors];
  return new AppError('VALIDATION_ERROR', all[0] ?? `messages[${index}] is invalid`, { fieldErrors: { messages: all }, formErrors: [], index });
}
