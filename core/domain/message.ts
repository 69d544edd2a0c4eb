import { pesewasToGhs, type Pesewas } from './money.ts';
import type { Channel, DeliveryStatus, TemplateCategory } from './channel.ts';
import type { PushContent } from './push-content.ts';
import type { WhatsappTemplateSend } from './whatsapp-template.ts';

/**
 * A message and its delivery log: one row per recipient, the source of truth for status, cost and
 * every delivery attempt. Queue jobs carry only its id.
 */
export interface Message {
  id: string;
  organizationId: string;
  /** The id shown to API users as internalMessageId (and passed to providers as our reference). */
  internalMessageId: string;
  channel: Channel;
  recipient: string;
  /** ISO 3166 alpha-2 of a phone recipient; null for email and push. */
  country: string | null;
  /**
   * The recipient's mobile network slug ('MTN', 'TELECEL': docs/routing.md) as known when it was priced
   * (prefix, lookup or an earlier delivery report), corrected by its own delivery report; null or
   * absent when unknown (email, push, unplanned countries).
   */
  network?: string | null;
  /**
   * As stored and shown: the email subject, the in-app title or the push notification's title; a passcode
   * message's subject and body carry its code masked (docs/verify.md).
   */
  subject: string | null;
  body: string;
  /**
   * The text the recipient gets when it differs from the stored one (a passcode message): `{ subject, body }`
   * as JSON, encrypted at rest (CredentialCipher). Read only by delivery, cleared once the message is sent
   * or failed, never part of a view. Absent or null: the stored subject and body are what is sent.
   */
  sealedContent?: string | null;
  /** PUSH only: image, deep link and custom data (docs/messaging-rules.md); null or absent otherwise. */
  push?: PushContent | null;
  /**
   * WHATSAPP outside the 24-hour window: the approved Meta template it goes as (docs/whatsapp-templates.md),
   * a passcode's masked (the clear one is in `sealedContent`); null or absent: sent as text.
   */
  whatsappTemplate?: WhatsappTemplateSend | null;
  templateId: string | null;
  /** The template locale it was rendered in (docs/templates.md, "Locales"); null or absent: no template. */
  locale?: string | null;
  /** What kind of message it is (the template's category, a campaign's, or the send's `category`); consent and send windows depend on it. */
  category: TemplateCategory;
  status: DeliveryStatus;
  /** When a SCHEDULED message is (or was) released to delivery; null for a message sent at once. */
  scheduledAt: Date | null;
  /** Why a message was rejected or failed (fraud code, SUPPRESSED, provider code). */
  errorCode: string | null;
  errorMessage: string | null;
  /** Charged amount; 0 for sandbox, rejected and refunded messages. */
  cost: Pesewas;
  /** Price computed before sending, whether or not it was charged. */
  price: Pesewas;
  segments: number;
  encoding: 'GSM-7' | 'UCS-2' | null;
  isSandbox: boolean;
  apiKeyId: string | null;
  userId: string | null;
  senderId: string | null;
  provider: string | null;
  providerMessageId: string | null;
  attempts: number;
  /** While set in the future, a delivery attempt holds the message; nobody else may claim it. */
  leaseUntil: Date | null;
  createdAt: Date;
  updatedAt: Date;
  sentAt: Date | null;
  deliveredAt: Date | null;
  failedAt: Date | null;
}

/** The vendor reference the local outbox gives the messages it writes (adapters/providers/outbox-provider.ts). */
export const OUTBOX_REFERENCE_PREFIX = 'outbox_';

/**
 * Where an accepted message went: 'OUTBOX' when the local outbox took it (written to a file on this
 * machine, never delivered to anyone), 'PROVIDER' when a vendor did, null while nobody has
 * (docs/providers.md, "The outbox").
 */
export function deliveredVia(m: Pick<Message, 'provider' | 'providerMessageId'>): 'OUTBOX' | 'PROVIDER' | null {
  if (m.providerMessageId?.startsWith(OUTBOX_REFERENCE_PREFIX)) return 'OUTBOX';
  return m.provider && m.providerMessageId ? 'PROVIDER' : null;
}

/** The spec's delivery log (section 2) plus the fields a dashboard needs. */
export function deliveryLogView(m: Message) {
  const view: Record<string, unknown> = {
    id: m.id, internalMessageId: m.internalMessageId, status: m.status, channel: m.channel, recipient: m.recipient,
    cost: pesewasToGhs(m.cost), network: m.network ?? null, segments: m.segments, encoding: m.encoding, isSandbox: m.isSandbox,
    templateId: m.templateId, category: m.category, scheduledAt: m.scheduledAt?.toISOString() ?? null, provider: m.provider, attempts: m.attempts,
    // A SENT or DELIVERED that never left the machine says so (issue 29): clients must not read it as delivered.
    deliveredVia: deliveredVia(m), localOnly: deliveredVia(m) === 'OUTBOX',
    createdAt: m.createdAt.toISOString(), updatedAt: m.updatedAt.toISOString(),
    sentAt: m.sentAt?.toISOString() ?? null, deliveredAt: m.deliveredAt?.toISOString() ?? null, failedAt: m.failedAt?.toISOString() ?? null,
  };
  if (m.locale) view['locale'] = m.locale; // rendered from a template: its locale (docs/templates.md, "Locales")
  if (m.errorCode) { view['errorCode'] = m.errorCode; view['errorMessage'] = m.errorMessage; }
  // Sent outside WhatsApp's 24-hour window: which Meta template it went as (docs/whatsapp-templates.md).
  if (m.whatsappTemplate) view['whatsappTemplate'] = { name: m.whatsappTemplate.name, language: m.whatsappTemplate.language.code };
  return view;
}

/** Statuses after which nothing more happens to a message. */
export const FINAL_STATUSES: readonly DeliveryStatus[] = ['DELIVERED', 'FAILED', 'REJECTED', 'CANCELLED'];
