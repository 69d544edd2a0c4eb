import { createHmac, randomBytes } from 'node:crypto';
import { startFakeServer, type FakeReply, type FakeServer, type ReceivedRequest } from './ghana-sms-fake-server.ts';

export type { Outcome, ReceivedRequest } from './ghana-sms-fake-server.ts';

export interface FakeMetaWhatsapp extends FakeServer {
  accessToken: string;
  appSecret: string;
  phoneNumberId: string;
  apiVersion: string;
  businessAccountId: string;
  /** The account's templates as `GET /{waba-id}/message_templates` lists them (Meta's JSON; replace or push to change). */
  templates: Array<Record<string, unknown>>;
  /** Posts a signed status webhook (the Graph envelope around `statuses`) to `url`, as Meta does. */
  postStatuses(url: string, statuses: Array<Record<string, unknown>>): Promise<Response>;
}

/** Meta's error envelope, e.g. `metaError(131026, 'Message undeliverable')` for a scripted error body. */
export function metaError(code: number, message: string, details = message): unknown {
  return { error: { message, type: 'OAuthException', code, error_data: { messaging_product: 'whatsapp', details }, fbtrace_id: 'AbCdEf123' } };
}

/**
 * A local WhatsApp Cloud API: `POST /{version}/{phoneNumberId}/messages` and `GET /{version}/{phoneNumberId}`
 * with a bearer token; validates the message shapes of API-FORMATS section 6.
 */
export async function startFakeMetaWhatsapp(options: { accessToken?: string; appSecret?: string; phoneNumberId?: string; apiVersion?: string;
  businessAccountId?: string; templates?: Array<Record<string, unknown>> } = {}): Promise<FakeMetaWhatsapp> {
  const accessToken = options.accessToken ?? 'EAAG-meta-test-token';
  const appSecret = options.appSecret ?? 'meta-app-secret';
  const phoneNumberId = options.phoneNumberId ?? '106540352242922';
  const apiVersion = options.apiVersion ?? 'v21.0';
  const base = `/${apiVersion}/${phoneNumberId}`;
  const businessAccountId = options.businessAccountId ?? '102290129340398';
  const templatesPath = `/${apiVersion}/${businessAccountId}/message_templates`;
  const state = { templates: options.templates ?? [] };

  /**
   * `GET /{waba-id}/message_templates?fields=...&limit=N&after=CURSOR` answered as Meta's Graph API pages
   * (developers.facebook.com/documentation/business-messaging/whatsapp/templates/template-management):
   * `{ data: [...], paging: { cursors: { before, after }, next } }`, `next` only when more follow.
   */
  const listTemplates = (request: ReceivedRequest): FakeReply => {
    const limit = Math.max(1, Number(request.query['limit'] ?? 25));
    const start = request.query['after'] ? Number(Buffer.from(String(request.query['after']), 'base64url').toString('utf8')) : 0;
    const fields = String(request.query['fields'] ?? 'name,status,id').split(',');
    const page = state.templates.slice(start, start + limit).map((t) => Object.fromEntries(Object.entries(t).filter(([key]) => fields.includes(key) || key === 'id')));
    const cursor = (n: number) => Buffer.from(String(n)).toString('base64url');
    const more = start + limit < state.templates.length;
    const paging: Record<string, unknown> = { cursors: { before: cursor(start), after: cursor(start + page.length) } };
    if (more) paging['next'] = `https://graph.facebook.com${templatesPath}?fields=${fields.join(',')}&limit=${limit}&after=${cursor(start + page.length)}`;
    return { status: 200, body: { data: page, paging } };
  };

  const handle = (request: ReceivedRequest): FakeReply => {
    if (request.path === templatesPath) {
      if (request.headers.authorization !== `Bearer ${accessToken}`) return { status: 401, body: metaError(190, 'Invalid OAuth access token - Cannot parse access token') };
      return request.method === 'GET' ? listTemplates(request) : { status: 400, body: metaError(100, 'Unsupported request') };
    }
    if (request.path !== base && request.path !== `${base}/messages`) return { status: 400, body: metaError(100, 'Unsupported request - method type or path unknown') };
    if (request.headers.authorization !== `Bearer ${accessToken}`) {
      return { status: 401, body: metaError(190, 'Invalid OAuth access token - Cannot parse access token') };
    }
    if (request.method === 'GET' && request.path === base) {
      return { status: 200, body: { verified_name: 'Nkra Test', display_phone_number: '+233 30 000 0000', quality_rating: 'GREEN', id: phoneNumberId } };
    }
    if (request.method === 'POST' && request.path === `${base}/messages`) return send(request);
    return { status: 400, body: metaError(100, 'Unsupported request') };
  };

  const send = (request: ReceivedRequest): FakeReply => {
    const body = (request.json ?? {}) as Record<string, unknown>;
    const to = body['to'];
    const invalid = (why: string): FakeReply => ({ status: 400, body: metaError(100, '(#100) Invalid parameter', why) });
    if (body['messaging_product'] !== 'whatsapp') return invalid('messaging_product must be whatsapp');
    if (typeof to !== 'string' || !/^\d{8,15}$/.test(to)) return invalid('to must be the international number');
    if (body['type'] === 'text') {
      const text = body['text'] as { body?: unknown } | undefined;
      if (typeof text?.body !== 'string' || text.body === '' || text.body.length > 4096) return invalid('text.body is required (<= 4096 characters)');
    } else if (body['type'] === 'template') {
      const template = body['template'] as { name?: unknown; language?: { code?: unknown } } | undefined;
      if (typeof template?.name !== 'string' || typeof template.language?.code !== 'string') return invalid('template.name and template.language.code are required');
      const components = (template as { components?: unknown }).components;
      if (components !== undefined && !validComponents(components)) return invalid('template.components: each is {type: header|body|button (sub_type, index as a string)}, parameters [{type: text, text}]');
    } else {
      return { status: 400, body: metaError(131051, 'Unsupported message type') };
    }
    const id = `wamid.${randomBytes(18).toString('base64url')}`;
    const message = body['type'] === 'template' ? { id, message_status: 'accepted' } : { id };
    return { status: 200, body: { messaging_product: 'whatsapp', contacts: [{ input: to, wa_id: to }], messages: [message] } };
  };

  const errorBody = (status: number): unknown => status === 429 ? metaError(130429, 'Rate limit hit')
    : status >= 500 ? metaError(2, 'Service temporarily unavailable')
      : status === 401 ? metaError(190, 'Invalid OAuth access token')
        : metaError(131026, 'Message undeliverable', 'Recipient is not a valid WhatsApp user');

  const server = await startFakeServer({ handle, errorBody });
  return {
    ...server, accessToken, appSecret, phoneNumberId, apiVersion, businessAccountId,
    get templates() { return state.templates; },
    set templates(value) { state.templates = value; },
    postStatuses: async (url, statuses) => {
      const envelope = {
        object: 'whatsapp_business_account',
        entry: [{ id: 'WABA-1', changes: [{ field: 'messages', value: {
          messaging_product: 'whatsapp', metadata: { display_phone_number: '15550783881', phone_number_id: phoneNumberId }, statuses,
        } }] }],
      };
      const raw = JSON.stringify(envelope);
      const signature = `sha256=${createHmac('sha256', appSecret).update(raw).digest('hex')}`;
      return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature }, body: raw });
    },
  };
}

/** Meta's send-side component shape (API-FORMATS section 6): header/body/button, a button with sub_type and a string index, text or payload parameters. */
function validComponents(components: unknown): boolean {
  if (!Array.isArray(components)) return false;
  return components.every((c: Record<string, unknown>) => {
    if (!['header', 'body', 'button'].includes(String(c['type']))) return false;
    if (c['type'] === 'button' && (typeof c['sub_type'] !== 'string' || typeof c['index'] !== 'string')) return false;
    const parameters = c['parameters'];
    return Array.isArray(parameters) && parameters.every((p: Record<string, unknown>) => (p['type'] === 'text' && typeof p['text'] === 'string' && p['text'] !== '')
      || (p['type'] === 'payload' && typeof p['payload'] === 'string'));
  });
}
