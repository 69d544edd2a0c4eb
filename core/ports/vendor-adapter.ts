import type { ChannelProvider } from './channel-provider.ts';
import type { MetaTemplateListing } from '../domain/whatsapp-template.ts';

/** The result of an authenticated account or balance call to a vendor. */
export interface ProviderHealth {
  ok: boolean;
  latencyMs: number;
  /** Human-readable; never contains credentials. */
  detail: string;
  /** Account balance where the vendor reports one (vendor currency units), else null. */
  balance: number | null;
}

/** A status change reported by a vendor (callback or polling), in our terms. */
export interface DeliveryReport {
  providerMessageId: string;
  status: 'SENT' | 'DELIVERED' | 'FAILED';
  /** Normalized code for FAILED (e.g. 'INVALID_NUMBER', 'UNREGISTERED', 'EXPIRED'), else null. */
  errorCode: string | null;
  /** The vendor's own status word, kept for the delivery log. */
  vendorStatus: string;
  occurredAt: Date | null;
  /** The recipient's network as the vendor reports it (MCC+MNC: Africa's Talking `networkCode`): it wins over the prefix (docs/routing.md). */
  networkCode?: string | null;
}

/** A message a contact sent, as a vendor callback reports it (docs/conversations.md). */
export interface InboundReport {
  /** The vendor's id of the message: a retried callback carries the same one. */
  providerMessageId: string;
  channel: 'SMS' | 'WHATSAPP';
  /** The contact's number as the vendor wrote it. */
  from: string;
  /** The receiving number, short code or WhatsApp phone-number id. */
  to: string;
  body: string;
  receivedAt: Date | null;
  /** A display name the vendor gives (WhatsApp profile name), if any. */
  profileName: string | null;
}

/** An inbound vendor callback as the HTTP host received it. */
export interface InboundCallback {
  /** Full public URL the vendor called (Twilio signs it). */
  url: string;
  headers: Record<string, string | undefined>;
  /** Exact bytes received (signatures are computed over them). */
  rawBody: Buffer;
  contentType: string;
}

/**
 * A real vendor behind the per-channel provider port. Every network call has a timeout; vendor answers
 * map to one ProviderResult (5xx, 429 and timeouts retryable; 4xx permanent unless the vendor says
 * otherwise); errors and logs never contain credentials.
 */
export interface VendorAdapter extends ChannelProvider {
  /** Vendor key, e.g. 'arkesel', 'hubtel', 'twilio-sms'. */
  readonly vendor: string;
  checkHealth(): Promise<ProviderHealth>;
  /**
   * Vendors with batched receipts (Expo): reports for those of `providerMessageIds` the vendor has a
   * receipt for, asked in the vendor's batch size with a timeout per request; ids without a receipt yet
   * are left out. `failure` says why the rest was not asked (timeout, outage); never credentials.
   */
  fetchReceipts?(providerMessageIds: readonly string[]): Promise<{ reports: DeliveryReport[]; failure: string | null }>;
  /**
   * WhatsApp accounts with a business account id: the account's message templates and their status,
   * every page read with a timeout (docs/whatsapp-templates.md). Throws PROVIDER_UNAVAILABLE.
   */
  messageTemplates?(): Promise<MetaTemplateListing[]>;
  /** Polling vendors (Hubtel, mNotify): the current status of one message, or null when unknown. */
  fetchStatus?(providerMessageId: string): Promise<DeliveryReport | null>;
  /**
   * Callback vendors: verifies the signature where the vendor signs (throws AppError
   * INVALID_SIGNATURE when it does not match) and parses the reports in the callback.
   */
  parseCallback?(callback: InboundCallback): DeliveryReport[];
  /**
   * Vendors that forward messages contacts send: verifies the callback like parseCallback (throws
   * INVALID_SIGNATURE) and returns the inbound messages in it (none for a delivery report).
   */
  parseInbound?(callback: InboundCallback): InboundReport[];
  /**
   * False when the adapter has nothing to check a callback against (an Africa's Talking account without
   * `callbackToken`: AT does not sign): such an account takes callbacks only on its own unguessable
   * callback URL, never on the vendor-wide one, and never another account's. Absent means true (the
   * adapter throws INVALID_SIGNATURE when it has no secret).
   */
  readonly verifiesCallbacks?: boolean;
  /**
   * The answer a vendor expects to a verified callback, when it is not our JSON envelope (Twilio's
   * messaging webhooks expect TwiML: an empty `<Response/>` sends no reply). Absent: the JSON envelope.
   */
  callbackReply?(): { contentType: string; body: string };
}
