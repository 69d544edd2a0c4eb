import type { Channel } from './channel.ts';

/** Channels a contact can write in on (docs/conversations.md). */
export const INBOUND_CHANNELS = ['SMS', 'WHATSAPP'] as const satisfies readonly Channel[];
export type InboundChannel = (typeof INBOUND_CHANNELS)[number];

/** WhatsApp's customer-service window: free-form text only within 24 h of the contact's last inbound message. */
export const WHATSAPP_WINDOW_MS = 24 * 3_600_000;

/**
 * Whether the window opened by an inbound WhatsApp message at `lastInboundAt` is still open at `now`.
 * Open while strictly less than 24 h have passed: at exactly 24 h it is closed (Meta counts "within 24
 * hours"; at the edge we refuse rather than have Meta refuse after charging).
 */
export function whatsappWindowOpen(lastInboundAt: Date | null, now: Date): boolean {
  if (!lastInboundAt) return false;
  const elapsed = now.getTime() - lastInboundAt.getTime();
  return elapsed < WHATSAPP_WINDOW_MS;
}

/**
 * A phone number, short code or WhatsApp phone-number id of a platform vendor account assigned to one
 * organization: inbound messages to it belong to that organization. Platform data (administrators manage it).
 */
export interface InboundNumber {
  id: string;
  organizationId: string;
  channel: InboundChannel;
  /** E.164 number, short code (digits) or WhatsApp phone_number_id, as the vendor names the receiving side. */
  address: string;
  createdAt: Date;
}

/** A message a contact sent to an organization, as received from a vendor. */
export interface InboundMessage {
  id: string;
  organizationId: string;
  conversationId: string;
  contactId: string;
  channel: InboundChannel;
  /** The vendor key (dedupe is per vendor and vendor message id). */
  vendor: string;
  /** The provider (configuration name) whose credentials verified the callback. */
  provider: string;
  providerMessageId: string;
  /** The contact's address (E.164). */
  from: string;
  /** The receiving number / short code / phone-number id. */
  to: string;
  body: string;
  /** The keyword action the message triggered (OPT_OUT, OPT_IN, AUTO_REPLY), or null. */
  keyword: string | null;
  receivedAt: Date;
  createdAt: Date;
}

/** One thread: an organization's exchange with one contact address on one channel. */
export interface Conversation {
  id: string;
  organizationId: string;
  contactId: string;
  channel: InboundChannel;
  /** The contact's address (E.164): replies go there. */
  address: string;
  /** The number / short code / phone-number id the contact last wrote to. */
  lastInboundTo: string;
  lastInboundAt: Date;
  lastMessageAt: Date;
  lastMessagePreview: string;
  unreadCount: number;
  createdAt: Date;
  updatedAt: Date;
}

/** One item of a thread: an inbound message or an outbound message to the conversation's address. */
export interface ThreadItem {
  direction: 'INBOUND' | 'OUTBOUND';
  id: string;
  body: string;
  /** Outbound: the delivery status; inbound: 'RECEIVED'. */
  status: string;
  /** Outbound: the local outbox took it (never delivered: docs/providers.md, "The outbox"). */
  localOnly?: boolean;
  at: Date;
}

export const PREVIEW_MAX = 160;

export function preview(body: string): string {
  const line = body.replace(/\s+/g, ' ').trim();
  return line.length <= PREVIEW_MAX ? line : `${line.slice(0, PREVIEW_MAX - 1)}…`;
}

export function conversationView(c: Conversation, now: Date) {
  return {
    id: c.id, contactId: c.contactId, channel: c.channel, address: c.address, lastInboundTo: c.lastInboundTo,
    lastInboundAt: c.lastInboundAt.toISOString(), lastMessageAt: c.lastMessageAt.toISOString(), lastMessagePreview: c.lastMessagePreview,
    unreadCount: c.unreadCount,
    whatsappWindowOpen: c.channel === 'WHATSAPP' ? whatsappWindowOpen(c.lastInboundAt, now) : null,
    whatsappWindowClosesAt: c.channel === 'WHATSAPP' ? new Date(c.lastInboundAt.getTime() + WHATSAPP_WINDOW_MS).toISOString() : null,
    createdAt: c.createdAt.toISOString(), updatedAt: c.updatedAt.toISOString(),
  };
}

export function threadItemView(t: ThreadItem) {
  return { direction: t.direction, id: t.id, body: t.body, status: t.status, localOnly: t.localOnly === true, at: t.at.toISOString() };
}

export function inboundNumberView(n: InboundNumber) {
  return { id: n.id, organizationId: n.organizationId, channel: n.channel, address: n.address, createdAt: n.createdAt.toISOString() };
}

/**
 * The receiving address as stored and matched: phone-like addresses as digits only ("+233 50 000 0000",
 * "233500000000" and "whatsapp:+233500000000" are one number), anything else (an alphanumeric id) trimmed.
 */
export function normalizeInboundAddress(address: string): string {
  const trimmed = address.trim().replace(/^whatsapp:/i, '');
  return /^\+?[0-9 ()\-.]+$/.test(trimmed) ? trimmed.replace(/[^0-9]/g, '') : trimmed;
}
