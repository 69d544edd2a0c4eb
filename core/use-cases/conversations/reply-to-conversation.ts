import { localePreferences } from '../templates/locale-preferences.ts';
import * as v from 'valibot';
import { AppError } from '../../errors.ts';
import { canonicalJson } from '../../domain/canonical-json.ts';
import { preview } from '../../domain/conversation.ts';
import { deliveryLogView } from '../../domain/message.ts';
import { parseInput } from '../../validation.ts';
import { AcceptCoalescer } from '../messaging/accept-coalescer.ts';
import { idempotencyKeySchema, prepareMessage, variablesSchema } from '../messaging/message-preparation.ts';
import type { SendContext } from '../messaging/send-context.ts';
import type { SendDeps } from '../messaging/send-message.ts';

export const ReplyInput = v.object({
  body: v.optional(v.pipe(v.string('must be a string'), v.maxLength(4_096, 'is too long'))),
  templateId: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(64))),
  variables: variablesSchema,
  idempotencyKey: idempotencyKeySchema,
});

/**
 * POST /conversations/{id}/reply: one message to the conversation's contact on the channel the contact
 * used (SMS or WHATSAPP), through the same pipeline as POST /messages/send (idempotency key, price and
 * charge, fraud and suppression screening, sender IDs, and WhatsApp's 24-hour window: outside it only an
 * approved WhatsApp template, else 422 WHATSAPP_WINDOW_CLOSED before charging). Queued for the worker (202).
 * Errors: NOT_FOUND, VALIDATION_ERROR, TEMPLATE_NOT_APPROVED, INSUFFICIENT_BALANCE, WHATSAPP_WINDOW_CLOSED ...
 */
export class ReplyToConversation {
  readonly #deps: SendDeps;
  readonly #coalescer: AcceptCoalescer;
  constructor(deps: SendDeps) { this.#deps = deps; this.#coalescer = new AcceptCoalescer(deps); }

  async execute(ctx: SendContext, conversationId: string, raw: unknown) {
    const input = parseInput(ReplyInput, raw);
    const { storage } = this.#deps;
    const conversation = await storage.conversations.findById(ctx.organizationId, conversationId);
    if (!conversation) throw new AppError('NOT_FOUND', 'Conversation not found');
    const template = input.templateId ? await storage.templates.findById(ctx.organizationId, input.templateId) : null;
    const contact = template && (template.variants ?? []).length > 0 ? await storage.contacts.findById(ctx.organizationId, conversation.contactId) : null;
    const locales = await localePreferences(storage, ctx.organizationId, template, { contact }); // docs/templates.md, "Locales"
    const prepared = prepareMessage({ channel: conversation.channel, to: conversation.address, body: input.body, templateId: input.templateId,
      variables: input.variables, countryCode: 'GH', locales }, template, await this.#deps.pricing.listActive());
    const { idempotencyKey, ...request } = input;
    const accepted = await this.#coalescer.accept({
      ctx, prepared: [prepared], async: true,
      idempotency: idempotencyKey ? { key: idempotencyKey, requestHash: this.#deps.secrets.sha256(canonicalJson({ conversationId, ...request })) } : null,
    });
    const message = accepted.messages[0]!;
    if (!accepted.replayed) await storage.conversations.touchOutbound(ctx.organizationId, conversation.id, { sentAt: message.createdAt, preview: preview(message.body) });
    return { log: deliveryLogView(message), replayed: accepted.replayed };
  }
}
