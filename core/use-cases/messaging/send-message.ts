import { linkTrackingOption, type LinkTrackingDeps } from '../links/link-tracking.ts';
import type { OwnAccountPricing } from './accept-messages.ts';
import * as v from 'valibot';
import { isAppError } from '../../errors.ts';
import { parseInput } from '../../validation.ts';
import { canonicalJson } from '../../domain/canonical-json.ts';
import { deliveryLogView, type Message } from '../../domain/message.ts';
import type { Clock } from '../../ports/clock.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import type { PricingRepository } from '../../ports/pricing-repository.ts';
import type { Secrets } from '../../ports/secrets.ts';
import type { Storage } from '../../ports/storage.ts';
import type { TraceCapture } from '../../ports/trace-capture.ts';
import type { OptOutLinkSigner } from '../../ports/opt-out-links.ts';
import { optOutOption } from '../consent/opt-out-link-text.ts';
import type { SendTiming } from './send-timing.ts';
import { AcceptCoalescer } from './accept-coalescer.ts';
import { type NetworkKnowledge, categorySchema, channelSchema, countryCodeSchema, idempotencyKeySchema, prepareMessage, SUBJECT_MAX, variablesSchema } from './message-preparation.ts';
import type { DeliverNow, FraudLimits, SendContext } from './send-context.ts';
import { sendAtOf, sendAtSchema } from './send-at.ts';
import { pushFieldEntries } from './push-fields.ts';
import { localeSchema } from '../../domain/locale.ts';
import { localePreferences } from '../templates/locale-preferences.ts';
import { preparedWithLookup, type SendLookups } from '../routing/number-lookup-support.ts';

export const SendMessageInput = v.object({
  channel: channelSchema,
  to: v.pipe(v.string('must be a string'), v.trim(), v.minLength(1, 'is required'), v.maxLength(4096, 'is too long')),
  body: v.optional(v.pipe(v.string('must be a string'), v.maxLength(200_000, 'is too long'))),
  subject: v.optional(v.pipe(v.string('must be a string'), v.maxLength(SUBJECT_MAX, `must be at most ${SUBJECT_MAX} characters`))),
  countryCode: v.optional(countryCodeSchema, 'GH'),
  templateId: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(64))),
  variables: variablesSchema,
  category: categorySchema,
  senderId: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(11, 'must be at most 11 characters'))),
  idempotencyKey: idempotencyKeySchema,
  async: v.optional(v.boolean('must be true or false'), false),
  /** Not before this time, at most 35 days ahead (docs/scheduling.md): the message is SCHEDULED until then. */
  sendAt: sendAtSchema,
  /** PUSH only: image, deep link and custom data (docs/messaging-rules.md). */
  ...pushFieldEntries,
  /** Renders the template in this locale when it has it (docs/templates.md, "Locales"); before the contact's and the organization's. */
  locale: v.optional(localeSchema),
});

export interface SendDeps {
  storage: Storage;
  pricing: PricingRepository;
  clock: Clock;
  ids: IdGenerator;
  secrets: Secrets;
  fraud: FraudLimits;
  deliverNow: DeliverNow;
  /** See AcceptDeps.ownAccounts. */
  ownAccounts?: OwnAccountPricing | undefined;
  /** Pesewas; see AcceptDeps.lowBalanceThreshold. */
  lowBalanceThreshold?: number | undefined;
  /** Opt-out links of marketing messages (docs/consent.md); without it no link is added. */
  optOutLinks?: OptOutLinkSigner | undefined;
  /** See AcceptDeps.timing. */
  timing?: SendTiming | undefined;
  /** See AcceptDeps.traces. */
  traces?: TraceCapture | undefined;
  /** Numbers' networks, answered from memory (docs/routing.md); without it the prefix tables. */
  networks?: NetworkKnowledge | undefined;
  /** Paid number lookups for organizations that turned them on (docs/routing.md); without it, none. */
  lookups?: SendLookups | undefined;
  /** Tracked links (docs/links.md); without it no URL is replaced. */
  linkTracking?: LinkTrackingDeps | undefined;
  /** See AcceptDeps.linkRetentionMonths. */
  linkRetentionMonths?: number | undefined;
}

/**
 * POST /messages/send: validates, prices, screens, charges once and records the message; with
 * `async` it is queued for the worker (202, QUEUED), otherwise delivered inline and the resulting
 * status returned (201). With a future `sendAt` it is charged now and held SCHEDULED until then
 * (202, whatever `async` says: nothing was delivered inline). A fraud-blocked send is a REJECTED
 * delivery log, not an error.
 */
export class SendMessage {
  readonly #deps: SendDeps;
  readonly #coalescer: AcceptCoalescer;
  constructor(deps: SendDeps) { this.#deps = deps; this.#coalescer = new AcceptCoalescer(deps); }

  async execute(ctx: SendContext, raw: unknown): Promise<{ log: ReturnType<typeof deliveryLogView> & { subject: string | null }; queued: boolean; replayed: boolean }> {
    const input = parseInput(SendMessageInput, raw);
    const template = input.templateId ? await this.#deps.storage.templates.findById(ctx.organizationId, input.templateId) : null;
    const sendAt = sendAtOf(input.sendAt, this.#deps.clock.now());
    const locales = await localePreferences(this.#deps.storage, ctx.organizationId, template,
      { locale: input.locale, to: { channel: input.channel, address: input.to, countryCode: input.countryCode } });
    const rules = await this.#deps.pricing.listActive();
    const links = await linkTrackingOption(this.#deps, ctx.organizationId);
    const prepare = () => prepareMessage({ ...input, sendAt, locales }, template, rules, '', { optOut: optOutOption(this.#deps, ctx.organizationId), networks: this.#deps.networks, links });
    const prepared = ctx.isSandbox ? prepare() : await preparedWithLookup(this.#deps.lookups, ctx.organizationId, prepare(), prepare);
    const { idempotencyKey, ...request } = input;
    // Every send is group-committed with its organization's concurrent sends (AcceptCoalescer).
    const accepted = await this.#coalescer.accept({
      ctx, prepared: [prepared], async: input.async,
      idempotency: idempotencyKey ? { key: idempotencyKey, requestHash: this.#deps.secrets.sha256(canonicalJson(request)) } : null,
    });
    let message = accepted.messages[0]!;
    if (!input.async && !accepted.replayed && message.status === 'QUEUED') message = await deliverInline(this.#deps, message);
    // The caller sees the subject (email subject, push title) it sent; delivery log lists leave it out (docs/delivery-logs.md).
    return { log: { ...deliveryLogView(message), subject: message.subject }, queued: input.async || message.status === 'SCHEDULED', replayed: accepted.replayed };
  }
}

/**
 * Delivers now; a transient failure leaves the message PENDING for the worker's retries. Answers the
 * stored outcome (attempts, last error), not the accepted copy.
 */
export async function deliverInline(deps: { deliverNow: DeliverNow; storage: Storage }, message: Message): Promise<Message> {
  try {
    const delivered = await deps.deliverNow(message.id);
    if (delivered) return delivered;
  } catch (error) {
    if (!isAppError(error) || error.code !== 'PROVIDER_UNAVAILABLE') throw error;
  }
  return (await deps.storage.messages.findById(message.organizationId, message.id)) ?? message;
}
