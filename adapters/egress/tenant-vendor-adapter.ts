import type { OutboundMessage, ProviderResult } from '../../core/ports/channel-provider.ts';
import type { DeliveryReport, InboundCallback, InboundReport, ProviderHealth, VendorAdapter } from '../../core/ports/vendor-adapter.ts';
import type { MetaTemplateListing } from '../../core/domain/whatsapp-template.ts';
import { withTenantEgress, type TenantEgress } from './tenant-egress-scope.ts';

/** Failures whose message is wholly ours (the egress policy's reason), kept as they are. */
const OWN_MESSAGE_CODES = new Set(['ENDPOINT_REFUSED']);

/**
 * An organization's own vendor account: every call of the inner adapter runs under the egress policy
 * (tenant-egress-scope.ts), and what the account's owner is shown (send failures in the test-message
 * result and delivery logs, health details) is our classification only, never text from the remote
 * answer: "fcm-push: auth failed (HTTP 4xx)". A host the tenant named could be anything, so nothing it
 * says is reflected.
 */
export class TenantVendorAdapter implements VendorAdapter {
  readonly vendor: string;
  readonly channel: VendorAdapter['channel'];
  readonly name: string;
  readonly accepts?: (to: string) => boolean;
  readonly fetchStatus?: (providerMessageId: string) => Promise<DeliveryReport | null>;
  readonly fetchReceipts?: (ids: readonly string[]) => Promise<{ reports: DeliveryReport[]; failure: string | null }>;
  readonly messageTemplates?: () => Promise<MetaTemplateListing[]>;
  readonly parseCallback?: (callback: InboundCallback) => DeliveryReport[];
  readonly parseInbound?: (callback: InboundCallback) => InboundReport[];
  readonly verifiesCallbacks?: boolean;
  readonly callbackReply?: () => { contentType: string; body: string };
  readonly #inner: VendorAdapter;
  readonly #egress: TenantEgress;

  constructor(inner: VendorAdapter, egress: Omit<TenantEgress, 'vendor'>) {
    this.#inner = inner;
    this.#egress = { ...egress, vendor: inner.vendor };
    this.vendor = inner.vendor;
    this.channel = inner.channel;
    this.name = inner.name;
    if (inner.accepts) this.accepts = (to) => inner.accepts!(to);
    if (inner.fetchStatus) this.fetchStatus = (id) => withTenantEgress(this.#egress, () => inner.fetchStatus!(id));
    if (inner.fetchReceipts) this.fetchReceipts = (ids) => withTenantEgress(this.#egress, () => inner.fetchReceipts!(ids));
    if (inner.messageTemplates) this.messageTemplates = () => withTenantEgress(this.#egress, () => inner.messageTemplates!());
    if (inner.parseCallback) this.parseCallback = (callback) => inner.parseCallback!(callback);
    if (inner.parseInbound) this.parseInbound = (callback) => inner.parseInbound!(callback);
    if (inner.verifiesCallbacks !== undefined) this.verifiesCallbacks = inner.verifiesCallbacks;
    if (inner.callbackReply) this.callbackReply = () => inner.callbackReply!();
  }

  /** The adapter this one guards (tests, and callers that need vendor-specific methods). */
  get inner(): VendorAdapter { return this.#inner; }

  async send(message: OutboundMessage): Promise<ProviderResult> {
    const result = await withTenantEgress(this.#egress, () => this.#inner.send(message));
    if (result.accepted || OWN_MESSAGE_CODES.has(result.errorCode)) return result;
    return { ...result, errorMessage: genericMessage(this.name, result.errorCode, result.errorMessage) };
  }

  async checkHealth(): Promise<ProviderHealth> {
    const health = await withTenantEgress(this.#egress, () => this.#inner.checkHealth());
    if (health.ok || /endpoint refused by the egress policy/.test(health.detail)) return health;
    return { ...health, detail: `${this.name}: health check failed${statusClass(health.detail)}` };
  }
}

/** "name: auth failed (HTTP 4xx)": the normalized code and the status class from our own message format, nothing the vendor wrote. */
export function genericMessage(name: string, errorCode: string, original: string): string {
  const words = /^[A-Z0-9_]+$/.test(errorCode) ? errorCode.toLowerCase().replaceAll('_', ' ') : 'vendor error';
  return `${name}: ${words}${statusClass(original)}`;
}

function statusClass(message: string): string {
  const status = /\(HTTP ([1-5])\d\d\)/.exec(message)?.[1];
  return status ? ` (HTTP ${status}xx)` : '';
}
