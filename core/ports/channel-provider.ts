import type { Channel } from '../domain/channel.ts';
import type { PushContent } from '../domain/push-content.ts';
import type { WhatsappTemplateSend } from '../domain/whatsapp-template.ts';
import type { DeliveryLane } from '../domain/delivery-lane.ts';

export interface OutboundMessage {
  messageId: string;
  internalMessageId: string;
  organizationId: string;
  /** The message's delivery lane (from its category): a provider's free slots go to higher lanes first, then to organizations in turn. */
  lane?: DeliveryLane | null;
  channel: Channel;
  to: string;
  subject: string | null;
  body: string;
  /** PUSH only: image, deep link and custom data, placed where each vendor's protocol wants them. */
  push?: PushContent | null;
  senderId: string | null;
  /** WHATSAPP outside the 24-hour window: the Meta template to send instead of text (docs/whatsapp-templates.md); other channels ignore it. */
  whatsappTemplate?: WhatsappTemplateSend | null;
  /** More headers of an email (List-Unsubscribe and List-Unsubscribe-Post of a marketing email, docs/consent.md); other channels ignore them. */
  headers?: Readonly<Record<string, string>>;
}

export type ProviderResult =
  | {
    accepted: true; providerMessageId: string; /** The provider confirmed delivery already (sandbox). */ delivered: boolean;
    /** The recipient's network as the vendor's answer names it (MCC+MNC, Hubtel `networkId`): it corrects the number's network (docs/routing.md). */
    networkCode?: string | null;
  }
  | {
    accepted: false;
    /** A transient failure (timeout, 5xx, throttling): the next provider is tried and the message retried later. */
    retryable: boolean;
    errorCode: string;
    errorMessage: string;
    /**
     * The vendor refused our account, not the recipient or the content (authentication, sender not
     * valid for the account, vendor balance exhausted, account suspended: docs/failover.md). The
     * message fails over to the next provider, the failure counts against this provider's circuit,
     * and with no provider left the message is retried like a transient failure. Absent or false
     * with `retryable` false: the failure is the recipient's or the message's and ends the message.
     */
    accountLevel?: boolean;
  };

/**
 * One vendor for one channel. `send` never throws for vendor answers: it maps them to a result
 * (timeouts and 5xx are retryable). It never puts credentials in errors.
 */
export interface ChannelProvider {
  readonly name: string;
  readonly channel: Channel;
  /** Set on an organization's own vendor account (docs/providers.md): the organization it belongs to. */
  readonly organizationId?: string | null;
  send(message: OutboundMessage): Promise<ProviderResult>;
  /**
   * Whether this provider can deliver to `to` at all (a push provider serves one kind of device token).
   * Delivery skips providers answering false; without it, every destination of the channel is accepted.
   */
  accepts?(to: string): boolean;
  /**
   * The vendor's throughput limit for this account (messages/s, `settings.ratePerSecond`): delivery paces to
   * it across every worker process (RateBuckets, key `provider:<name>`). Absent or 0: not paced.
   */
  readonly ratePerSecond?: number;
}

/**
 * Chooses providers for a message: the failover order for the channel and destination country. With
 * an organization: its own vendor accounts first, then the platform's (unless its accounts routed
 * here forbid it: `platformFallback` false).
 */
export interface ProviderDirectory {
  /** `network`: the recipient's mobile network slug when known (docs/routing.md): its route and what learning found reorder the platform's providers. */
  providersFor(channel: Channel, country: string | null, sandbox: boolean, organizationId?: string, network?: string | null): readonly ChannelProvider[];
  /** Whether the organization has an active own account routed for this channel and country (its sends are priced at the own-account fee). */
  ownsRoute?(organizationId: string, channel: Channel, country: string | null): boolean;
}
