import { AppError } from '../../core/errors.ts';
import type { GatewayConfirmation } from '../../core/domain/payment.ts';
import type { CheckoutRequest, GatewayEvent, PaymentGateway } from '../../core/ports/payment-gateway.ts';
import { callVendor, vendorText, type VendorAnswer } from '../providers/ghana-sms-http.ts';
import { asRecord, confirmationFrom, readEvent, verifyHmacSha512 } from './paystack-format.ts';

export const PAYSTACK_BASE_URL = 'https://api.paystack.co';
const LABEL = 'Paystack';

export interface PaystackGatewayOptions {
  /** sk_test_... or sk_live_...: authenticates API calls and keys webhook signatures. */
  secretKey: string;
  baseUrl?: string;
  timeoutMs?: number;
}

/**
 * Paystack (docs: ../shared/providers/API-FORMATS.md section 9). Initialize `POST /transaction/initialize`
 * (amount in pesewas, GHS, our reference, callback URL; no `channels`, so the checkout offers every
 * method the account enables), verify `GET /transaction/verify/{reference}`, webhooks signed with
 * hex HMAC-SHA512 of the raw body keyed with the secret key (Paystack's `x-paystack-signature`).
 * Errors never carry the key: no URLs, no headers, vendor text with the key blanked.
 */
export class PaystackPaymentGateway implements PaymentGateway {
  readonly name = 'paystack';
  readonly #secretKey: string;
  readonly #baseUrl: string;
  readonly #timeoutMs: number;

  constructor(options: PaystackGatewayOptions) {
    if (!options.secretKey.trim()) throw new Error('Paystack needs a secret key');
    this.#secretKey = options.secretKey;
    this.#baseUrl = (options.baseUrl ?? PAYSTACK_BASE_URL).replace(/\/+$/, '');
    this.#timeoutMs = options.timeoutMs ?? 10_000;
  }

  async initialize(request: CheckoutRequest): Promise<{ checkoutUrl: string }> {
    const body = {
      email: request.email, amount: request.amount, currency: request.currency, reference: request.reference,
      callback_url: request.callbackUrl, metadata: request.metadata,
    };
    const answer = await this.#call('POST', '/transaction/initialize', JSON.stringify(body));
    const data = asRecord(asRecord(answer.json)['data']);
    const url = data['authorization_url'];
    if (!ok(answer) || typeof url !== 'string' || !/^https?:\/\//.test(url)) throw this.#failure(answer, 'initialize');
    return { checkoutUrl: url };
  }

  async verify(reference: string): Promise<GatewayConfirmation> {
    const answer = await this.#call('GET', `/transaction/verify/${encodeURIComponent(reference)}`);
    if (ok(answer)) return confirmationFrom(asRecord(answer.json)['data'], reference);
    const message = String(asRecord(answer.json)['message'] ?? '');
    if ((answer.status === 400 || answer.status === 404) && /not found/i.test(message)) {
      return { reference, outcome: 'pending', gatewayStatus: 'not_found', amount: null, currency: null };
    }
    throw this.#failure(answer, 'verify');
  }

  parseWebhook(rawBody: Buffer, signature: string | undefined): GatewayEvent {
    verifyHmacSha512(this.#secretKey, rawBody, signature);
    return readEvent(rawBody);
  }

  async #call(method: 'GET' | 'POST', path: string, body?: string): Promise<VendorAnswer> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.#secretKey}`, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const call = await callVendor(LABEL, new URL(`${this.#baseUrl}${path}`), body === undefined ? { method, headers } : { method, headers, body }, this.#timeoutMs);
    if (!call.ok) throw new AppError('PROVIDER_UNAVAILABLE', `Payment gateway unavailable: ${call.failure.errorMessage}`, {}, { retryable: true });
    return call.answer;
  }

  #failure(answer: VendorAnswer, what: string): AppError {
    const detail = vendorText(asRecord(answer.json)['message'], [this.#secretKey]);
    const retryable = answer.status >= 500 || answer.status === 429 || answer.status === 408;
    const reason = answer.status === 401 ? 'the secret key was refused' : detail || 'unexpected answer';
    return new AppError('PROVIDER_UNAVAILABLE', `${LABEL} ${what} failed (HTTP ${answer.status}): ${reason}`, { gateway: 'paystack' }, { retryable });
  }
}

/** Paystack's `status: true` only says the API call worked; the transaction's own status is checked by the caller. */
function ok(answer: VendorAnswer): boolean {
  return answer.status >= 200 && answer.status < 300 && asRecord(answer.json)['status'] === true;
}
