import { AppError } from '../../core/errors.ts';
import type { OutboundMessage, ProviderResult } from '../../core/ports/channel-provider.ts';
import type { DeliveryReport, InboundCallback, ProviderHealth, VendorAdapter } from '../../core/ports/vendor-adapter.ts';
import { escapeXml } from './africas-talking-voice.ts';
import { TWILIO_BASE_URL, TwilioApi, twilioE164, type TwilioCredentials } from './twilio-sms.ts';

const LABEL = 'Twilio voice';

export interface TwilioVoiceOptions {
  credentials: TwilioCredentials;
  /** The Twilio number (or verified caller id) calls come from, E.164. */
  from: string;
  /** `Say` voice, e.g. 'alice', 'Polly.Joanna' (default: Twilio's). */
  voice?: string;
  /** `Say` language, e.g. 'en-GB' (default: Twilio's). */
  language?: string;
  /** Times the text is spoken (default 1; at least 1). */
  loop?: number;
  /** Seconds to let the phone ring (Twilio `Timeout`; default Twilio's 60). */
  ringTimeoutSeconds?: number;
  /** Our public status-callback endpoint; Twilio reports `answered` and `completed` there. */
  statusCallbackUrl?: string;
  baseUrl?: string;
  timeoutMs?: number;
  /** Provider instance name; defaults to the vendor key. */
  name?: string;
}

/** `CallStatus` words; queued, initiated and ringing change nothing for us. */
const STATUSES: Record<string, Pick<DeliveryReport, 'status' | 'errorCode'>> = {
  'in-progress': { status: 'SENT', errorCode: null },
  completed: { status: 'DELIVERED', errorCode: null },
  busy: { status: 'FAILED', errorCode: 'BUSY' },
  'no-answer': { status: 'FAILED', errorCode: 'NO_ANSWER' },
  canceled: { status: 'FAILED', errorCode: 'CANCELED' },
  failed: { status: 'FAILED', errorCode: 'CALL_FAILED' },
};

/**
 * Twilio Programmable Voice: `POST /2010-04-01/Accounts/{sid}/Calls.json` with inline TwiML that
 * speaks the message body (`<Say>`, XML-escaped). Call status callbacks are signed like message
 * callbacks; a completed call counts as delivered.
 */
export class TwilioVoiceProvider implements VendorAdapter {
  readonly vendor = 'twilio-voice';
  readonly channel = 'VOICE' as const;
  readonly name: string;
  readonly #api: TwilioApi;
  readonly #from: string;
  readonly #voice: string | null;
  readonly #language: string | null;
  readonly #loop: number | null;
  readonly #ringTimeoutSeconds: number | null;
  readonly #statusCallbackUrl: string | null;

  constructor(options: TwilioVoiceOptions) {
    this.name = options.name ?? this.vendor;
    this.#api = new TwilioApi(LABEL, options.credentials, options.baseUrl ?? TWILIO_BASE_URL, options.timeoutMs ?? 10_000);
    this.#from = twilioE164(options.from);
    this.#voice = options.voice ?? null;
    this.#language = options.language ?? null;
    // Twilio reads loop=0 as 'until hang-up': never send it.
    this.#loop = options.loop === undefined ? null : Math.max(1, Math.trunc(options.loop) || 1);
    this.#ringTimeoutSeconds = options.ringTimeoutSeconds ?? null;
    this.#statusCallbackUrl = options.statusCallbackUrl ?? null;
  }

  /** Places the call; the vendor id is the call's `CA…` sid. The tenant's sender id is not a caller id, so `from` is always ours. */
  async send(message: OutboundMessage): Promise<ProviderResult> {
    const form = new URLSearchParams({ To: twilioE164(message.to), From: this.#from, Twiml: this.twiml(message.body) });
    if (this.#ringTimeoutSeconds !== null) form.set('Timeout', String(this.#ringTimeoutSeconds));
    if (this.#statusCallbackUrl) {
      form.set('StatusCallback', this.#statusCallbackUrl);
      form.append('StatusCallbackEvent', 'answered');
      form.append('StatusCallbackEvent', 'completed');
    }
    return this.#api.create('Calls.json', form, 'CA');
  }

  checkHealth(): Promise<ProviderHealth> {
    return this.#api.balance();
  }

  /** The inline TwiML of a call: the text, XML-escaped, in one `<Say>`. */
  twiml(text: string): string {
    const attributes = [
      this.#voice === null ? '' : ` voice="${escapeXml(this.#voice)}"`,
      this.#language === null ? '' : ` language="${escapeXml(this.#language)}"`,
      this.#loop === null ? '' : ` loop="${this.#loop}"`,
    ].join('');
    return `<Response><Say${attributes}>${escapeXml(text)}</Say></Response>`;
  }

  /**
   * A call status callback. Throws INVALID_SIGNATURE unless X-Twilio-Signature matches,
   * VALIDATION_ERROR without `CallSid` or `CallStatus`; queued/initiated/ringing yield no report.
   */
  parseCallback(callback: InboundCallback): DeliveryReport[] {
    const params = this.#api.verifiedParams(callback);
    const sid = params.get('CallSid');
    const status = params.get('CallStatus');
    if (!sid || !status) throw new AppError('VALIDATION_ERROR', 'Twilio call status callback without CallSid or CallStatus');
    const mapped = STATUSES[status.trim().toLowerCase()];
    if (!mapped) return [];
    const timestamp = params.get('Timestamp');
    const occurredAt = timestamp ? new Date(timestamp) : null;
    return [{ providerMessageId: sid, ...mapped, vendorStatus: status, occurredAt: occurredAt && !Number.isNaN(occurredAt.getTime()) ? occurredAt : null }];
  }
}
