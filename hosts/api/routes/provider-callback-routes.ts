import { AppError, isAppError } from '../../../core/errors.ts';
import type { ApplyDeliveryReport } from '../../../core/use-cases/messaging/apply-delivery-report.ts';
import type { Message } from '../../../core/domain/message.ts';
import type { InboundCallback, VendorAdapter } from '../../../core/ports/vendor-adapter.ts';
import type { RouteDefinition } from '../route.ts';

/** For an answered call of a speaking voice vendor: the XML that reads the message out; else null. */
async function speechFor(adapter: VendorAdapter, callback: InboundCallback, deps: ProviderCallbackDeps): Promise<string | null> {
  const speaking = adapter as Partial<SpeakingAdapter>;
  if (typeof speaking.activeSessionId !== 'function' || typeof speaking.sayXml !== 'function') return null;
  const sessionId = speaking.activeSessionId(callback);
  if (!sessionId) return null;
  const message = await deps.findMessage(adapter.name, sessionId);
  return message ? speaking.sayXml(message.body) : null;
}

/** A voice vendor that asks us, when the callee answers, what to say (Africa's Talking). */
interface SpeakingAdapter {
  activeSessionId(callback: InboundCallback): string | null;
  sayXml(text: string): string;
}

export interface ProviderCallbackDeps {
  /** Webhook verification handshakes (Meta): the challenge to echo, or null. */
  webhookChallenge: (vendor: string, query: Record<string, unknown>) => string | null;
  /** Finds the message a vendor session refers to (the text to speak on answered calls). */
  findMessage: (provider: string, providerMessageId: string) => Promise<Message | null>;
  /** Loaded adapters of a vendor key. */
  adaptersOf: (vendor: string) => VendorAdapter[];
  applyDeliveryReport: ApplyDeliveryReport;
  /** The public base URL vendors call (Twilio signs the full URL). */
  publicUrl: string;
}

/**
 * POST /providers/callbacks/{vendor}: delivery reports pushed by vendors. No user credentials; the
 * vendor's signature is verified where it signs (401 INVALID_SIGNATURE). With several providers of one
 * vendor (different accounts), the first whose credentials verify the callback takes it.
 */
export function providerCallbackRoutes(deps: ProviderCallbackDeps): RouteDefinition[] {
  // Most vendors POST their reports; Arkesel calls the callback URL with GET and query parameters.
  return (['POST', 'GET'] as const).map((method): RouteDefinition => ({
    method, path: '/providers/callbacks/:vendor', custom: true, tag: 'Providers', summary: 'Delivery report callback from a vendor',
    auth: 'none', rawBody: true,
    responses: { 200: 'Reports applied', 401: 'INVALID_SIGNATURE', 404: 'NOT_FOUND (no provider of this vendor takes callbacks)' },
    handler: async ({ params, body, headers, koa, query }) => {
      if (method === 'GET' && query['hub.mode'] !== undefined) {
        const challenge = deps.webhookChallenge(params['vendor'] ?? '', query);
        if (challenge === null) throw new AppError('FORBIDDEN', 'Webhook verification token does not match');
        koa.type = 'text/plain';
        koa.body = challenge;
        return;
      }
      const adapters = deps.adaptersOf(params['vendor'] ?? '').filter((a) => typeof a.parseCallback === 'function');
      if (adapters.length === 0) throw new AppError('NOT_FOUND', 'No provider of this vendor accepts callbacks');
      const callback = {
        url: `${deps.publicUrl}${koa.originalUrl}`, rawBody: body as Buffer, contentType: koa.get('content-type'),
        headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : v])),
      };
      let lastError: unknown = new AppError('INVALID_SIGNATURE', 'Callback signature is invalid');
      for (const adapter of adapters) {
        let reports;
        try {
          reports = adapter.parseCallback!(callback);
        } catch (error) {
          if (isAppError(error) && error.code === 'INVALID_SIGNATURE') { lastError = error; continue; }
          throw isAppError(error) ? error : new AppError('VALIDATION_ERROR', 'Unreadable callback body');
        }
        let applied = 0;
        for (const report of reports) if (await deps.applyDeliveryReport.execute(adapter.name, report, `callback:${adapter.vendor}`)) applied += 1;
        (koa.state['log'] as { info(o: object, m: string): void }).info({ event: 'provider.dlr', provider: adapter.name, received: reports.length, applied,
          statuses: reports.map((r) => r.status) }, 'delivery reports');
        const speech = await speechFor(adapter, callback, deps);
        if (speech !== null) {
          koa.type = 'application/xml';
          koa.body = speech;
        } else {
          koa.body = { success: true, data: { received: reports.length, applied } };
        }
        return;
      }
      throw lastError;
    },
  }));
}
