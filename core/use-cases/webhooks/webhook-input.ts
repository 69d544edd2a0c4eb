import * as v from 'valibot';
import { AppError, fieldError } from '../../errors.ts';
import { OUTBOUND_EVENT_KINDS } from '../../domain/outbound-event.ts';
import { MAX_WEBHOOK_ENDPOINTS } from '../../domain/webhook.ts';
import type { WebhookSender } from '../../ports/webhook-sender.ts';

export const WEBHOOK_URL_MAX = 2048;

export const webhookUrlSchema = v.pipe(v.string('must be a string'), v.trim(), v.maxLength(WEBHOOK_URL_MAX, `must be at most ${WEBHOOK_URL_MAX} characters`),
  v.check((url) => /^https?:\/\//i.test(url) && URL.canParse(url), 'must be an http:// or https:// URL'));

export const webhookEventsSchema = v.pipe(
  v.array(v.picklist(OUTBOUND_EVENT_KINDS, `must be event kinds: ${OUTBOUND_EVENT_KINDS.join(', ')}`), 'must be an array of event kinds'),
  v.transform((kinds) => [...new Set(kinds)]),
  v.description('Event kinds to receive; empty or omitted = every kind, including kinds added later'));

/** URL_REQUIRED for a missing or blank url (spec section 7), before the schema's other checks. */
export function requireUrl(raw: unknown): void {
  const url = typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>)['url'] : undefined;
  if (url === undefined || url === null || (typeof url === 'string' && url.trim() === '')) throw new AppError('URL_REQUIRED', 'url is required');
}

/** Refuses a URL whose host is not a public address (SSRF), naming the reason. */
export async function checkWebhookTarget(sender: WebhookSender, url: string): Promise<void> {
  const reason = await sender.checkTarget(url);
  if (reason) throw fieldError('url', `cannot receive webhooks: ${reason}`);
}

/** More than MAX_WEBHOOK_ENDPOINTS active endpoints (creation or re-activation): VALIDATION_ERROR, as documented in docs/webhooks.md. */
export function tooManyEndpoints(): AppError {
  return new AppError('VALIDATION_ERROR', `An organization may have at most ${MAX_WEBHOOK_ENDPOINTS} active webhook endpoints`,
    { fieldErrors: {}, formErrors: [`at most ${MAX_WEBHOOK_ENDPOINTS} active webhook endpoints`] });
}
