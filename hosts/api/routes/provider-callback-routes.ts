import { AppError, isAppError } from '../../../core/errors.ts';
import type { ApplyDeliveryReport } from '../../../core/use-cases/messaging/apply-delivery-report.ts';
import type { Message } from '../../../core/domain/message.ts';
import type { InboundCallback, InboundReport, VendorAdapter } from '../../../core/ports/vendor-adapter.ts';
import type { ReceiveInboundMessages } from '../../../core/use-cases/conversations/receive-inbound-messages.ts';
import type { ReplyToConversation } from '../../../core/use-cases/conversations/reply-to-conversation.ts';

type Log = { info(o: object, m: string): void; warn(o: object, m: string): void };

export interface InboundHandling {
  receive: ReceiveInboundMessages;
  /** Sends keyword auto-replies (charged like any live reply). */
  reply: ReplyToConversation;
  /** The organization owning the vendor account an adapter serves, or null (the platform's). */
  ownerOf: (adapter: VendorAdapter) => string | null;
  /** Counts inbound messages by outcome (stored, duplicate, unrouted, invalid). */
  count?: (outcome: string, vendor: string, n: number) => void;
}

/**
 * Stores the inbound messages of a verified callback and sends keyword auto-replies (their idempotency
 * key is the inbound message id, so a redelivered callback never replies twice). A message to an
 * address no organization holds is acknowledged (2xx: the vendor would retry forever) but stored nowhere:
 * logged and counted. An auto-reply that cannot go (balance, window) is logged, not answered to the vendor.
 */
async function receiveInbound(handling: InboundHandling, adapter: VendorAdapter, reports: InboundReport[], log: Log): Promise<number> {
  const result = await handling.receive.execute({ vendor: adapter.vendor, provider: adapter.name, organizationId: handling.ownerOf(adapter) }, reports);
  const counts = { stored: result.stored.length, duplicate: result.duplicates, unrouted: result.unrouted.length, invalid: result.invalid };
  for (const [outcome, n] of Object.entries(counts)) if (n > 0) handling.count?.(outcome, adapter.vendor, n);
  log.info({ event: 'provider.inbound', provider: adapter.name, ...counts }, 'inbound messages');
  if (result.unrouted.length > 0) log.warn({ event: 'provider.inbound.unrouted', provider: adapter.name, addresses: result.unrouted }, 'inbound messages to an unassigned number');
  for (const { message, keyword } of result.stored) {
    if (!keyword?.replyText) continue;
    try {
      await handling.reply.execute({ organizationId: message.organizationId, userId: null, apiKeyId: null, isSandbox: false }, message.conversationId,
        { body: keyword.replyText, idempotencyKey: `auto-reply:${message.id}` });
    } catch (error) {
      log.warn({ event: 'provider.inbound.auto_reply_failed', organizationId: message.organizationId, code: isAppError(error) ? error.code : 'INTERNAL_ERROR' }, 'keyword auto-reply not sent');
    }
  }
  return result.stored.length;
}
import type { RouteDefinition } from '../route.ts';
import type { TraceReport } from '../report-tracing.ts';

/** For an answered call of a speaking voice vendor: the XML that reads the message out; else null. */
async function speechFor(adapter: VendorAdapter, names: readonly string[], callback: InboundCallback, deps: ProviderCallbackDeps): Promise<string | null> {
  const speaking = adapter as Partial<SpeakingAdapter>;
  if (typeof speaking.activeSessionId !== 'function' || typeof speaking.sayXml !== 'function') return null;
  const sessionId = speaking.activeSessionId(callback);
  if (!sessionId) return null;
  const message = await deps.findMessage(names, sessionId);
  return message ? speaking.sayXml(message.body) : null;
}

/** A voice vendor that asks us, when the callee answers, what to say (Africa's Talking). */
interface SpeakingAdapter {
  activeSessionId(callback: InboundCallback): string | null;
  sayXml(text: string): string;
}

export interface ProviderCallbackDeps {
  /** Webhook verification handshakes (Meta): the challenge to echo, or null; `callbackId` null on the vendor-wide URL. */
  webhookChallenge: (vendor: string, callbackId: string | null, query: Record<string, unknown>) => string | null;
  /** Finds the message a vendor session refers to among these providers' messages (the text to speak on answered calls). */
  findMessage: (providers: readonly string[], providerMessageId: string) => Promise<Message | null>;
  /** The loaded adapter whose own callback URL carries this id, or null. */
  adapterByCallbackId: (vendor: string, callbackId: string) => VendorAdapter | null;
  /** The platform's loaded adapters of a vendor: the only ones the vendor-wide URL serves. */
  platformAdaptersOf: (vendor: string) => VendorAdapter[];
  /** Loaded adapters of the vendor of `adapter` with the same owner: those that may share its vendor account. */
  sameOwnerAdapters: (adapter: VendorAdapter) => VendorAdapter[];
  applyDeliveryReport: ApplyDeliveryReport;
  /** Tracing on: applies each report in its message's trace (report-tracing.ts); absent: applied as is. */
  traceReport?: TraceReport | undefined;
  /** The public base URL vendors call (Twilio signs the full URL). */
  publicUrl: string;
  /** Inbound messages (docs/conversations.md): stores what a verified callback carries; absent = ignored. */
  inbound?: InboundHandling;
}

/** Whether an adapter's secret verifies the callback (its parse does not throw). */
function verifies(adapter: VendorAdapter, callback: InboundCallback): boolean {
  try {
    adapter.parseCallback!(callback);
    return true;
  } catch {
    return false;
  }
}

/**
 * The adapters a callback may be for (docs/providers.md, "Callback URLs"): on an account's own URL
 * (`/providers/callbacks/<vendor>/<callbackId>`) that account alone; on the vendor-wide URL the
 * platform's providers whose callbacks carry something to check (never an organization's account).
 */
function candidatesFor(deps: ProviderCallbackDeps, vendor: string, callbackId: string | null): VendorAdapter[] {
  if (callbackId !== null) {
    const adapter = deps.adapterByCallbackId(vendor, callbackId);
    if (!adapter || typeof adapter.parseCallback !== 'function') throw new AppError('NOT_FOUND', 'No provider takes callbacks at this URL');
    return [adapter];
  }
  const adapters = deps.platformAdaptersOf(vendor).filter((a) => typeof a.parseCallback === 'function');
  if (adapters.length === 0) throw new AppError('NOT_FOUND', 'No provider of this vendor accepts callbacks');
  const checking = adapters.filter((a) => a.verifiesCallbacks !== false);
  if (checking.length === 0) throw new AppError('INVALID_SIGNATURE', 'Callbacks of this vendor cannot be authenticated here: configure a callback token or use the account\'s own callback URL');
  return checking;
}

/**
 * POST (Arkesel: GET) /providers/callbacks/{vendor}/{callbackId}: delivery reports and inbound messages
 * pushed by vendors, bound to the account whose URL it is: only its secret verifies (401
 * INVALID_SIGNATURE otherwise), and reports are matched only among the messages of the providers of the
 * same owner whose secret verifies the callback too (one vendor account behind several providers: two
 * Meta numbers of one app, two Twilio senders). /providers/callbacks/{vendor} (no id) stays for the
 * platform's providers only.
 */
export function providerCallbackRoutes(deps: ProviderCallbackDeps): RouteDefinition[] {
  // Most vendors POST their reports; Arkesel calls the callback URL with GET and query parameters.
  return (['POST', 'GET'] as const).flatMap((method) => ['/providers/callbacks/:vendor', '/providers/callbacks/:vendor/:callbackId'].map((path): RouteDefinition => ({
    method, path, custom: true, tag: 'Providers',
    summary: path.endsWith(':callbackId') ? 'Delivery report or inbound message callback for one provider account' : 'Delivery report callback for the platform\'s providers of a vendor',
    auth: 'none', rawBody: true,
    responses: { 200: 'Reports applied', 401: 'INVALID_SIGNATURE', 403: 'FORBIDDEN (webhook verify token does not match)', 404: 'NOT_FOUND (no provider takes callbacks at this URL)' },
    handler: async ({ params, body, headers, koa, query }) => {
      const vendor = params['vendor'] ?? '';
      const callbackId = params['callbackId'] ?? null;
      if (method === 'GET' && query['hub.mode'] !== undefined) {
        const challenge = deps.webhookChallenge(vendor, callbackId, query);
        if (challenge === null) throw new AppError('FORBIDDEN', 'Webhook verification token does not match');
        koa.type = 'text/plain';
        koa.body = challenge;
        return;
      }
      const callback: InboundCallback = {
        url: `${deps.publicUrl}${koa.originalUrl}`, rawBody: body as Buffer, contentType: koa.get('content-type'),
        headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : v])),
      };
      let lastError: unknown = new AppError('INVALID_SIGNATURE', 'Callback signature is invalid');
      for (const adapter of candidatesFor(deps, vendor, callbackId)) {
        let reports;
        let inbound: InboundReport[] = [];
        try {
          reports = adapter.parseCallback!(callback);
          if (deps.inbound && adapter.parseInbound) inbound = adapter.parseInbound(callback);
        } catch (error) {
          if (isAppError(error) && error.code === 'INVALID_SIGNATURE') { lastError = error; continue; }
          throw isAppError(error) ? error : new AppError('VALIDATION_ERROR', 'Unreadable callback body');
        }
        const sharing = deps.sameOwnerAdapters(adapter).filter((a) => a !== adapter && a.verifiesCallbacks !== false && typeof a.parseCallback === 'function' && verifies(a, callback));
        const names = [adapter.name, ...sharing.map((a) => a.name)];
        let applied = 0;
        for (const report of reports) {
          const apply = () => deps.applyDeliveryReport.execute(names, report, `callback:${adapter.vendor}`);
          if (await (deps.traceReport ? deps.traceReport(names, report, apply) : apply())) applied += 1;
        }
        (koa.state['log'] as Log).info({ event: 'provider.dlr', provider: adapter.name, received: reports.length, applied,
          statuses: reports.map((r) => r.status) }, 'delivery reports');
        const received = inbound.length > 0 && deps.inbound ? await receiveInbound(deps.inbound, adapter, inbound, koa.state['log'] as Log) : 0;
        const speech = await speechFor(adapter, names, callback, deps);
        const reply = speech === null ? adapter.callbackReply?.() : undefined;
        if (speech !== null) {
          koa.type = 'application/xml';
          koa.body = speech;
        } else if (reply) {
          // The vendor's own answer format (Twilio: empty TwiML, never JSON it would try to read as TwiML).
          koa.type = reply.contentType;
          koa.body = reply.body;
        } else {
          koa.body = { success: true, data: { received: reports.length, applied, ...(inbound.length > 0 ? { inbound: received } : {}) } };
        }
        return;
      }
      throw lastError;
    },
  })));
}
