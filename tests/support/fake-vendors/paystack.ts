import { createHmac, randomBytes } from 'node:crypto';
import { startFakeServer, type FakeReply, type FakeServer, type ReceivedRequest } from './ghana-sms-fake-server.ts';

export type { Outcome, ReceivedRequest } from './ghana-sms-fake-server.ts';

export interface FakePaystackTransaction {
  reference: string;
  amount: number;
  currency: string;
  email: string;
  callbackUrl: string | null;
  status: 'ongoing' | 'success' | 'failed' | 'abandoned';
  metadata: unknown;
}

export interface FakePaystack extends FakeServer {
  secretKey: string;
  transactions: Map<string, FakePaystackTransaction>;
  /** The customer finishes (or fails) the checkout; `confirm` overrides what Paystack then reports (amount, currency). */
  settle(reference: string, status: FakePaystackTransaction['status'], confirm?: { amount?: number; currency?: string }): void;
  /** A webhook exactly as Paystack sends it: `{ event, data }` and the hex HMAC-SHA512 of those bytes keyed with the secret key. */
  webhook(reference: string, event?: string): { rawBody: Buffer; signature: string };
}

/** The transaction object of verify answers and webhooks (API-FORMATS.md section 9). */
function transactionData(t: FakePaystackTransaction): Record<string, unknown> {
  return {
    id: 690075529, domain: 'test', status: t.status, reference: t.reference, amount: t.amount, currency: t.currency,
    channel: 'mobile_money', gateway_response: t.status === 'success' ? 'Approved' : 'Declined', paid_at: t.status === 'success' ? new Date().toISOString() : null,
    created_at: new Date().toISOString(), fees: 153, metadata: t.metadata,
    customer: { id: 16763, email: t.email, customer_code: 'CUS_fake', risk_action: 'default' },
    authorization: { authorization_code: 'AUTH_fake', channel: 'mobile_money', bank: 'MTN Mobile Money', country_code: 'GH', reusable: false },
  };
}

/**
 * A local Paystack: `POST /transaction/initialize` (Bearer secret key, integer subunit amount, unique
 * reference) and `GET /transaction/verify/{reference}`, with Paystack's `{ status, message, data }`
 * envelope and its errors (401 invalid key, 400 duplicate reference / reference not found).
 */
export async function startFakePaystack(options: { secretKey?: string } = {}): Promise<FakePaystack> {
  const secretKey = options.secretKey ?? `sk_test_${randomBytes(12).toString('hex')}`;
  const transactions = new Map<string, FakePaystackTransaction>();
  const confirmations = new Map<string, { amount?: number; currency?: string }>();
  let base = '';

  const handle = (request: ReceivedRequest): FakeReply => {
    if (request.headers.authorization !== `Bearer ${secretKey}`) return { status: 401, body: { status: false, message: 'Invalid key' } };
    if (request.method === 'POST' && request.path === '/transaction/initialize') return initialize(request);
    const verify = /^\/transaction\/verify\/([^/]+)$/.exec(request.path);
    if (request.method === 'GET' && verify) {
      const t = transactions.get(decodeURIComponent(verify[1]!));
      if (!t) return { status: 400, body: { status: false, message: 'Transaction reference not found' } };
      return { status: 200, body: { status: true, message: 'Verification successful', data: { ...transactionData(t), ...confirmations.get(t.reference) } } };
    }
    return { status: 404, body: { status: false, message: 'Not found' } };
  };

  const initialize = (request: ReceivedRequest): FakeReply => {
    const body = (request.json ?? {}) as Record<string, unknown>;
    if (typeof body['email'] !== 'string' || !body['email'].includes('@')) return { status: 400, body: { status: false, message: 'Invalid Email Address Passed' } };
    if (typeof body['amount'] !== 'number' || !Number.isInteger(body['amount']) || body['amount'] <= 0) return { status: 400, body: { status: false, message: 'Invalid Amount Sent' } };
    const reference = String(body['reference'] ?? '');
    if (!/^[A-Za-z0-9.=-]+$/.test(reference)) return { status: 400, body: { status: false, message: 'Invalid transaction reference' } };
    if (transactions.has(reference)) return { status: 400, body: { status: false, message: 'Duplicate Transaction Reference' } };
    transactions.set(reference, {
      reference, amount: body['amount'], currency: typeof body['currency'] === 'string' ? body['currency'] : 'GHS', email: body['email'],
      callbackUrl: typeof body['callback_url'] === 'string' ? body['callback_url'] : null, status: 'ongoing', metadata: body['metadata'] ?? null,
    });
    const accessCode = randomBytes(5).toString('hex');
    return { status: 200, body: { status: true, message: 'Authorization URL created', data: { authorization_url: `${base}/checkout/${accessCode}`, access_code: accessCode, reference } } };
  };

  const server = await startFakeServer({ handle, errorBody: (status) => ({ status: false, message: `HTTP ${status}` }) });
  base = server.url;
  return {
    ...server, secretKey, transactions,
    settle(reference, status, confirm = {}) {
      const t = transactions.get(reference);
      if (!t) throw new Error(`fake Paystack: unknown reference ${reference}`);
      t.status = status;
      confirmations.set(reference, confirm);
    },
    webhook(reference, event = 'charge.success') {
      const t = transactions.get(reference);
      if (!t) throw new Error(`fake Paystack: unknown reference ${reference}`);
      const rawBody = Buffer.from(JSON.stringify({ event, data: { ...transactionData(t), ...confirmations.get(reference) } }));
      return { rawBody, signature: createHmac('sha512', secretKey).update(rawBody).digest('hex') };
    },
  };
}
