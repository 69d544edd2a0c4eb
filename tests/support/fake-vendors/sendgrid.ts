import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { startFakeServer, type FakeReply, type FakeServer, type ReceivedRequest } from './ghana-sms-fake-server.ts';

export type { Outcome, ReceivedRequest } from './ghana-sms-fake-server.ts';

export interface FakeSendgrid extends FakeServer {
  apiKey: string;
  /** The Signed Event Webhook's verification key as the dashboard shows it (base64 DER SubjectPublicKeyInfo). */
  webhookPublicKey: string;
  /** Scopes GET /v3/scopes reports for the key. */
  scopes: string[];
  /** The X-Message-Id of each accepted send, in order. */
  messageIds: string[];
  /**
   * Posts an event batch to `url` as SendGrid does: a JSON array, signed (ECDSA P-256, SHA-256 over
   * timestamp + body) unless `signed` is false; `timestamp` defaults to now.
   */
  postEvents(url: string, events: Array<Record<string, unknown>>, options?: { timestamp?: number; signed?: boolean }): Promise<Response>;
}

/** SendGrid's error body. */
export function sendgridError(message: string, field: string | null = null): unknown {
  return { errors: [{ message, field, help: null }] };
}

/** A local SendGrid v3: `POST /v3/mail/send` (202 + X-Message-Id) and `GET /v3/scopes`, bearer API key. */
export async function startFakeSendgrid(options: { apiKey?: string } = {}): Promise<FakeSendgrid> {
  const apiKey = options.apiKey ?? 'SG.test-key.sendgrid-secret';
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const webhookPublicKey = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
  const scopes = ['mail.send', 'user.account.read'];
  const messageIds: string[] = [];

  const handle = (request: ReceivedRequest): FakeReply => {
    if (request.headers.authorization !== `Bearer ${apiKey}`) {
      return { status: 401, body: sendgridError('The provided authorization grant is invalid, expired, or revoked') };
    }
    if (request.method === 'GET' && request.path === '/v3/scopes') return { status: 200, body: { scopes } };
    if (request.method === 'POST' && request.path === '/v3/mail/send') return send(request);
    return { status: 404, body: sendgridError('Not found') };
  };

  const send = (request: ReceivedRequest): FakeReply => {
    const body = (request.json ?? {}) as Record<string, unknown>;
    const personalizations = body['personalizations'];
    if (!Array.isArray(personalizations) || personalizations.length === 0 || personalizations.length > 1000) {
      return { status: 400, body: sendgridError('The personalizations field is required and must have at least one personalization.', 'personalizations') };
    }
    for (const [i, p] of (personalizations as Array<Record<string, unknown>>).entries()) {
      const to = p['to'];
      if (!Array.isArray(to) || to.length === 0 || to.some((t) => !/^[^@\s]+@[^@\s]+$/.test(String((t as { email?: unknown }).email)))) {
        return { status: 400, body: sendgridError('Does not contain a valid address.', `personalizations.${i}.to`) };
      }
      if (typeof p['subject'] !== 'string' || p['subject'] === '') return { status: 400, body: sendgridError('The subject is required.', 'subject') };
    }
    if (typeof (body['from'] as { email?: unknown } | undefined)?.email !== 'string') return { status: 400, body: sendgridError('The from object must be provided.', 'from') };
    const content = body['content'];
    if (!Array.isArray(content) || content.length === 0) return { status: 400, body: sendgridError('Unless a valid template_id is provided, the content parameter is required.', 'content') };
    const types = (content as Array<{ type?: unknown }>).map((c) => c.type);
    if (types.includes('text/html') && types.includes('text/plain') && types.indexOf('text/plain') > types.indexOf('text/html')) {
      return { status: 400, body: sendgridError('If present, text/plain must be first, followed by text/html.', 'content') };
    }
    const id = randomBytes(16).toString('base64url').slice(0, 22);
    messageIds.push(id);
    const sandbox = (body['mail_settings'] as { sandbox_mode?: { enable?: unknown } } | undefined)?.sandbox_mode?.enable === true;
    return { status: sandbox ? 200 : 202, headers: { 'x-message-id': id } };
  };

  const errorBody = (status: number): unknown => status === 429 ? sendgridError('too many requests')
    : status >= 500 ? sendgridError('Internal server error')
      : status === 403 ? sendgridError('The from address does not match a verified Sender Identity.', 'from')
        : sendgridError('Bad Request', null);

  const server = await startFakeServer({ handle, errorBody });
  return {
    ...server, apiKey, webhookPublicKey, scopes, messageIds,
    postEvents: async (url, events, postOptions = {}) => {
      const raw = JSON.stringify(events);
      const timestamp = String(postOptions.timestamp ?? Math.floor(Date.now() / 1000));
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (postOptions.signed !== false) {
        const signature = sign('sha256', Buffer.concat([Buffer.from(timestamp), Buffer.from(raw)]), { key: privateKey, dsaEncoding: 'der' });
        headers['x-twilio-email-event-webhook-signature'] = signature.toString('base64');
        headers['x-twilio-email-event-webhook-timestamp'] = timestamp;
      }
      return fetch(url, { method: 'POST', headers, body: raw });
    },
  };
}
