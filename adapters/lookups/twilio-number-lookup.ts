import { AppError } from '../../core/errors.ts';
import { networkByMccMnc } from '../../core/domain/mobile-network.ts';
import type { LookupResult, NumberLookup } from '../../core/ports/number-intelligence.ts';
import { asRecord, asString, callVendor, vendorText } from '../providers/ghana-sms-http.ts';

export const TWILIO_LOOKUP_BASE_URL = 'https://lookups.twilio.com';
const LABEL = 'Twilio Lookup';

/**
 * Twilio Lookup v2 with the Line Type Intelligence package (a paid request):
 * `GET /v2/PhoneNumbers/{E.164}?Fields=line_type_intelligence`, HTTP Basic with the Account SID (or an
 * API key SID) and its secret. The answer's `line_type_intelligence.mobile_country_code` and
 * `mobile_network_code` name the network now serving the number (after porting); `carrier_name` is kept
 * for the record. Documented at twilio.com/docs/lookup/v2-api/line-type-intelligence.
 */
export class TwilioNumberLookup implements NumberLookup {
  readonly vendor = 'twilio-lookup';
  readonly #baseUrl: string;
  readonly #auth: string;
  readonly #secret: string;
  readonly #timeoutMs: number;

  constructor(credentials: { accountSid: string; authToken: string }, options: { baseUrl?: string; timeoutMs?: number } = {}) {
    this.#baseUrl = (options.baseUrl ?? TWILIO_LOOKUP_BASE_URL).replace(/\/+$/, '');
    this.#auth = `Basic ${Buffer.from(`${credentials.accountSid}:${credentials.authToken}`).toString('base64')}`;
    this.#secret = credentials.authToken;
    this.#timeoutMs = options.timeoutMs ?? 5_000;
  }

  async lookup(e164: string): Promise<LookupResult> {
    const url = new URL(`${this.#baseUrl}/v2/PhoneNumbers/${encodeURIComponent(e164)}`);
    url.searchParams.set('Fields', 'line_type_intelligence');
    const call = await callVendor(LABEL, url, { method: 'GET', headers: { authorization: this.#auth, accept: 'application/json' } }, this.#timeoutMs);
    if (!call.ok) throw new AppError('PROVIDER_UNAVAILABLE', call.failure.errorMessage, { vendor: this.vendor }, { retryable: true });
    const body = asRecord(call.answer.json);
    if (call.answer.status >= 500 || call.answer.status === 429) {
      throw new AppError('PROVIDER_UNAVAILABLE', `${LABEL}: HTTP ${call.answer.status}`, { vendor: this.vendor }, { retryable: true });
    }
    if (call.answer.status !== 200) {
      throw new AppError('LOOKUP_FAILED', `${LABEL}: HTTP ${call.answer.status} ${vendorText(body['message'], [this.#secret])}`.trim(), { vendor: this.vendor, status: call.answer.status });
    }
    const lti = asRecord(body['line_type_intelligence']);
    const mcc = asString(lti['mobile_country_code']);
    const mnc = asString(lti['mobile_network_code']);
    const mccMnc = mcc && mnc ? `${mcc}${mnc.padStart(2, '0')}` : null;
    return { network: networkByMccMnc(mccMnc), mccMnc, ported: null };
  }
}
