import { AppError } from '../../core/errors.ts';
import { networkByMccMnc } from '../../core/domain/mobile-network.ts';
import type { LookupResult, NumberLookup } from '../../core/ports/number-intelligence.ts';
import { asNumber, asRecord, asString, callVendor, internationalDigits, vendorText } from '../providers/ghana-sms-http.ts';

export const TERMII_LOOKUP_BASE_URL = 'https://api.ng.termii.com';
const LABEL = 'Termii Status';

/**
 * Termii's Status API (Insights; detects ported numbers, a paid request):
 * `GET /api/insight/number/query?api_key=...&phone_number=<digits>&country_code=<ISO>`. The answer is
 * `{ result: [{ routeDetail: { number, ported }, countryDetail: { countryCode, mobileCountryCode, iso },
 * operatorDetail: { operatorName, mobileNumberCode: '62120', ... }, status }] }`: `mobileNumberCode` is
 * the serving network's MCC+MNC. Shape from Termii's API reference (developers.termii.com, Insights ->
 * Status) and the termii-node SDK's recorded fixture.
 */
export class TermiiNumberLookup implements NumberLookup {
  readonly vendor = 'termii-lookup';
  readonly #baseUrl: string;
  readonly #apiKey: string;
  readonly #timeoutMs: number;

  constructor(credentials: { apiKey: string }, options: { baseUrl?: string; timeoutMs?: number } = {}) {
    this.#baseUrl = (options.baseUrl ?? TERMII_LOOKUP_BASE_URL).replace(/\/+$/, '');
    this.#apiKey = credentials.apiKey;
    this.#timeoutMs = options.timeoutMs ?? 5_000;
  }

  async lookup(e164: string, country?: string | null): Promise<LookupResult> {
    const url = new URL(`${this.#baseUrl}/api/insight/number/query`);
    url.searchParams.set('api_key', this.#apiKey);
    url.searchParams.set('phone_number', internationalDigits(e164));
    if (country) url.searchParams.set('country_code', country);
    const call = await callVendor(LABEL, url, { method: 'GET', headers: { accept: 'application/json' } }, this.#timeoutMs);
    if (!call.ok) throw new AppError('PROVIDER_UNAVAILABLE', call.failure.errorMessage.replaceAll(this.#apiKey, '***'), { vendor: this.vendor }, { retryable: true });
    const body = asRecord(call.answer.json);
    if (call.answer.status >= 500 || call.answer.status === 429) {
      throw new AppError('PROVIDER_UNAVAILABLE', `${LABEL}: HTTP ${call.answer.status}`, { vendor: this.vendor }, { retryable: true });
    }
    if (call.answer.status !== 200) {
      throw new AppError('LOOKUP_FAILED', `${LABEL}: HTTP ${call.answer.status} ${vendorText(body['message'], [this.#apiKey])}`.trim(), { vendor: this.vendor, status: call.answer.status });
    }
    const first = asRecord(Array.isArray(body['result']) ? body['result'][0] : null);
    const operator = asRecord(first['operatorDetail']);
    const mccMnc = asString(operator['mobileNumberCode']);
    const ported = asNumber(asRecord(first['routeDetail'])['ported']);
    return { network: networkByMccMnc(mccMnc), mccMnc, ported: ported === null ? null : ported === 1 };
  }
}
