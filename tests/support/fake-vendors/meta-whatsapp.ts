import { createHmac, randomBytes } from 'node:crypto';
import { startFakeServer, type FakeReply, type FakeServer, type ReceivedRequest } from './ghana-sms-fake-server.ts';

export type { Outcome, ReceivedRequest } from './ghana-sms-fake-server.ts';

export interface FakeMetaWhatsapp extends FakeServer {
  accessToken: string;
  appSecret: string;
  phoneNumberId: string;
  apiVersion: string;
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
export async function startFakeMetaWhatsapp(options: { accessToken?: string; appSecret?: string; phoneNumberId?: string; apiVersion?: string } = {}): Promise<FakeMetaWhatsapp> {
  const accessToken = options.accessToken ?? 'EAAG-meta-test-token';
  const appSecret = options.appSecret ?? 'meta-app-secret';
  const phoneNumberId = options.phoneNumberId ?? '106540352242922';
  const apiVersion = options.apiVersion ?? 'v21.0';
  const base = `/${apiVersion}/${phoneNumberId}`;

  const handle = (request: ReceivedRequest): FakeReply => {
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
    ...server, accessToken, appSecret, phoneNumberId, apiVersion,
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
